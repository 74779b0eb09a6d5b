#!/usr/bin/env node
// `npm test`: every check a change must pass, in the order that fails fastest — lint, typecheck,
// domain + server (PGlite and PostgreSQL) + console tests with Vitest, then the browser
// end-to-end suite with Playwright against the built console and a real server.
// Ends with one summary line, "N passed, N failed", counted from the runners' JSON reports.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reports = mkdtempSync(join(tmpdir(), 'latchkey-test-'));
const vitestReport = join(reports, 'vitest.json');
const playwrightReport = join(reports, 'playwright.json');
const only = process.argv[2]; // optional: lint | typecheck | unit | e2e

const steps = [
  // `npm run lint`: ESLint, then Redocly on the OpenAPI document generated from the app.
  { name: 'lint', cmd: 'npm', args: ['run', '--silent', 'lint'] },
  { name: 'typecheck', cmd: 'npm', args: ['run', '--silent', 'typecheck'] },
  {
    name: 'unit',
    cmd: 'npx',
    args: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  },
  {
    name: 'e2e',
    cmd: 'npm',
    args: ['run', '--silent', 'test:e2e', '--', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightReport },
  },
].filter((s) => !only || s.name === only);

const started = Date.now();
const failedSteps = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name} ━━`);
  const t0 = Date.now();
  const r = spawnSync(step.cmd, step.args, { stdio: 'inherit', env: { ...process.env, ...step.env } });
  console.log(`━━ ${step.name}: ${r.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  if (r.status !== 0) failedSteps.push(step.name);
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
// A check that failed outside a test runner (lint, typecheck, a crashed runner) counts as one failure.
const uncounted = failedSteps.filter((s) => s === 'lint' || s === 'typecheck').length;
if (failedSteps.length > 0 && failed === 0) failed = Math.max(uncounted, 1);

console.log(`\nWall time ${((Date.now() - started) / 1000).toFixed(1)} s${failedSteps.length ? `; failed steps: ${failedSteps.join(', ')}` : ''}`);
console.log(`Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failedSteps.length ? 1 : 0);
