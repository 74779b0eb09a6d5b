import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const main = resolve(import.meta.dirname, '../src/main.ts');

describe('start-up', () => {
  it('stops with exit code 1 and a message naming the variable when the configuration is invalid', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: '70000' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration: PORT must be a port number 1-65535');
  });
});
