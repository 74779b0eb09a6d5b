import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort, TEST_SECRET_KEY } from './support/app.ts';
import { checksumOf, loadMigrations } from '../src/db/migrate.ts';
import { createTestPostgres } from './support/databases.ts';
import { describe, expect, it } from 'vitest';

const main = resolve(import.meta.dirname, '../src/main.ts');

describe('start-up', () => {
  it('stops with exit code 1 and a message naming the variable when the configuration is invalid', () => {
    const run = spawnSync(process.execPath, [main], {
      env: { ...process.env, PORT: '70000' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Invalid configuration: PORT must be a port number 1-65535');
    expect(JSON.parse(run.stderr.trim().split('\n').at(-1) ?? '')).toMatchObject({ level: 50, msg: expect.stringContaining('PORT') });
  });

  it('refuses to start on a database whose applied migration is not the file, saying which, both checksums and what to do', async () => {
    const database = await createTestPostgres();
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-startup-'));
    try {
      // As if 0030 had been applied from another text than the file this code carries.
      const applied = 'f'.repeat(64);
      await database.db.query("UPDATE schema_migrations SET checksum = $1 WHERE version = '0030_end_users'", [applied]);
      const file = checksumOf(loadMigrations().find((m) => m.version === '0030_end_users')?.sql ?? '');
      const run = spawnSync(process.execPath, [main], {
        env: { ...process.env, DATA_DIR: dir, DATABASE_URL: database.url, SECRET_KEY: TEST_SECRET_KEY, PORT: String(await freePort()) },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).not.toContain('Latchkey is running at');
      // The operator's one line (JSON, docs/decisions/0033): the reason, not a stack trace.
      const last = JSON.parse(run.stderr.trim().split('\n').at(-1) ?? '') as { level: number; msg: string };
      expect(last.level).toBe(50);
      expect(last.msg).toContain('Latchkey could not start: Migration 0030_end_users changed after this database applied it');
      expect(last.msg).toContain(`the database recorded sha256 ${applied}, the file 0030_end_users.sql has sha256 ${file}`);
      expect(last.msg).toContain('Restore the file as it landed');
      expect(last.msg).toContain('put the change in a new migration');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('warns at start when PUBLIC_URL is an IP address, where browsers refuse passkeys; the default address does not', async () => {
    const output = async (env: Record<string, string>) => {
      const dir = mkdtempSync(join(tmpdir(), 'latchkey-startup-'));
      const child = spawn(process.execPath, [main], {
        env: { ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: String(await freePort()), ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const exited = new Promise((ok) => child.once('exit', ok));
      try {
        // A first start on PGlite (initdb, migrations, new keys) with the browser suite on the same
        // cores (scripts/test.mjs runs Vitest and Playwright side by side): up to a minute.
        await expect.poll(() => text, { timeout: 60_000, interval: 100 }).toContain('Latchkey is running at');
        // The warning, when there is one, follows the line above at once.
        await new Promise((ok) => setTimeout(ok, 200));
        return text;
      } finally {
        child.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // Both servers start at once (each on its own port and data folder): the one with an IP
    // address on a PostgreSQL copy of the template (whose server keys are sealed under the run's
    // master key), the default one on embedded PGlite as `npm start` runs it.
    const postgres = await createTestPostgres();
    // The default one at the default level, its lines as on a terminal (LOG_FORMAT=text).
    const [onIpAddress, byDefault] = await Promise.all([
      output({ PUBLIC_URL: 'http://127.0.0.1:8080', DATABASE_URL: postgres.url, SECRET_KEY: TEST_SECRET_KEY }).finally(() => postgres.drop()),
      output({ LOG_LEVEL: 'info', LOG_FORMAT: 'text' }),
    ]);
    // Written to a pipe, every line is JSON, its words in `msg` (docs/decisions/0033).
    for (const line of onIpAddress.split('\n').filter((l) => l.trim() !== '')) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(onIpAddress).toContain('Warning: PUBLIC_URL http://127.0.0.1:8080 is an IP address: browsers refuse passkeys there');
    // Issue 38: a person reads one line naming the one address to open, and no other address
    // (Fastify's `Server listening at http://127.0.0.1:…` is at debug).
    expect(byDefault).toMatch(/^\d\d:\d\d:\d\d INFO {2}Latchkey is running at http:\/\/localhost:\d+$/m);
    expect(byDefault.match(/\d+\.\d+\.\d+\.\d+|https?:\/\//g)).toHaveLength(1);
    expect(byDefault).not.toContain('{');
    expect(byDefault).not.toContain('Warning');
  }, 90_000);
});
