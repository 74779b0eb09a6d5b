#!/usr/bin/env node
// `npm test`: every check a change must pass — lint, typecheck, domain + server + console tests with
// Vitest, then the browser end-to-end suite with Playwright against the built console and a real
// server. docs/decisions/0025: the steps that need no database (lint, typecheck, the console's build)
// run side by side, one per core; then Vitest and Playwright, each with a worker per core.
// Ends with each step's time and result, and one line "N passed, N failed" counted from the runners'
// JSON reports.
//
//   node scripts/test.mjs [lint|typecheck|build|unit|e2e ...]   only these steps (lint is eslint and prettier)
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reports = mkdtempSync(join(tmpdir(), 'latchkey-test-'));
const vitestReport = join(reports, 'vitest.json');
const playwrightReport = join(reports, 'playwright.json');
const only = new Set(process.argv.slice(2));
// The browser suite drives the built console: asking for it alone builds it first.
if (only.has('e2e')) only.add('build');
if (only.has('lint')) ['eslint', 'prettier'].forEach((name) => only.add(name));

/** Each stage's steps run at once; a stage starts when the one before it has ended. */
const stages = [
  [
    // `npm run lint:code`'s two scripts, ESLint and Prettier, as two steps so that four processes share the two
    // cores (docs/decisions/0025, seventh round); Redocly's lint of the OpenAPI document (the rest
    // of `npm run lint`) runs in the server's openapi.test.ts, on an app that suite builds anyway.
    { name: 'eslint', cmd: 'npm', args: ['run', '--silent', 'lint:eslint'] },
    { name: 'prettier', cmd: 'npm', args: ['run', '--silent', 'lint:prettier'] },
    { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
    { name: 'build', cmd: 'npm', args: ['run', '--silent', 'build'] },
  ],
  [
    {
      name: 'unit',
      cmd: 'npx',
      args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
    },
  ],
  [
    {
      name: 'e2e',
      cmd: 'npx',
      args: ['playwright', 'test', '-c', 'packages/e2e/playwright.config.ts', '--reporter=list,json'],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
    },
  ],
]
  .map((stage) => stage.filter((s) => only.size === 0 || only.has(s.name)))
  .filter((stage) => stage.length > 0);

/**
 * Runs one step. Alone in its stage, its output goes straight to the terminal; beside others, each
 * step's output is held and printed whole when it ends, so steps never interleave their lines.
 */
function run(step, alone) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const child = spawn(step.cmd, step.args, {
      stdio: alone ? 'inherit' : ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env, ...(alone ? {} : { FORCE_COLOR: '1' }) },
    });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = (Date.now() - t0) / 1000;
      if (!alone) {
        console.log(`\n━━ ${step.name} ━━`);
        process.stdout.write(Buffer.concat(output));
      }
      const ok = code === 0;
      console.log(`━━ ${step.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`);
      resolve({ name: step.name, ok, seconds });
    });
  });
}

const started = Date.now();
const results = [];
for (const stage of stages) {
  if (stage.length === 1) console.log(`\n━━ ${stage[0].name} ━━`);
  else console.log(`\n━━ ${stage.map((s) => s.name).join(' + ')} (side by side) ━━`);
  results.push(...(await Promise.all(stage.map((step) => run(step, stage.length === 1)))));
}

let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(vitestReport)) {
  const v = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
}
if (existsSync(playwrightReport)) {
  const p = JSON.parse(readFileSync(playwrightReport, 'utf8'));
  passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
  failed += p.stats?.unexpected ?? 0;
  skipped += p.stats?.skipped ?? 0;
}
const failedSteps = results.filter((r) => !r.ok).map((r) => r.name);
// A check that failed outside a test runner (lint, typecheck, build, a crashed runner) counts as one failure.
if (failedSteps.length > 0 && failed === 0) failed = failedSteps.length;

console.log('\nStep        time     result');
for (const r of results) console.log(`${r.name.padEnd(10)} ${`${r.seconds.toFixed(1)} s`.padStart(8)}   ${r.ok ? 'ok' : 'FAILED'}`);
console.log(`\nWall time ${((Date.now() - started) / 1000).toFixed(1)} s${failedSteps.length ? `; failed steps: ${failedSteps.join(', ')}` : ''}`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedSteps.length ? 1 : 0);
