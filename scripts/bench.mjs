#!/usr/bin/env node
// `npm run bench`: speed and size figures, printed as a table. Not a pass/fail test: targets are
// stated beside each figure and exceeding one prints a warning and sets the exit code.
//  1. console first load: gzipped size of the JS and CSS that index.html loads before any route;
//     and the dashboard's lazy chunks (the charts and the map).
//  2. server: latency of list calls against a database seeded with many rows (packages/server/bench/run.ts).
//  3. issuer: end-to-end passkey sign-ins per second and the cost of a cold provider (bench/sign-ins.ts).
//  4. devices list and audit log at 10 M events / 1 M devices, and the Keycloak-shaped ratio (bench/lists.ts).
//  5. webhooks: deliveries per second and the time from an event to its delivery (bench/webhooks.ts).
//  6. the cluster's faults: sign-in p95 while an instance is killed and restarted, failover (cluster/fault-test.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'packages/console/dist');
const results = [];
let over = false;

// A target is a ceiling, or a floor for a figure where more is better (`better: 'higher'`, e.g. sign-ins/s).
function record(name, value, unit, target, better = 'lower') {
  const ok = target === undefined || (better === 'higher' ? value >= target : value <= target);
  if (!ok) over = true;
  results.push({ name, value, unit, target, better, ok });
}

console.log('Building the console…');
const build = spawnSync('npm', ['run', '--silent', 'build', '-w', '@latchkey/console'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const assets = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let js = 0;
let css = 0;
for (const asset of new Set(assets)) {
  const size = gzipSync(readFileSync(join(dist, asset)), { level: 9 }).length;
  if (asset.endsWith('.js')) js += size;
  else css += size;
}
record('console initial JS (gzip)', js / 1024, 'KiB', 150);
record('console initial CSS (gzip)', css / 1024, 'KiB', 40);
record('console first load, JS + CSS (gzip)', (js + css) / 1024, 'KiB', 150);

// The dashboard's own chunks (issue 10: ECharts, the world's shapes), fetched only when a dashboard
// opens, on top of the first load. Named after their modules (dashboard-page.tsx, usage-dashboard.tsx).
const dashboardChunks = readdirSync(join(dist, 'assets')).filter((name) => /^(dashboard-page|usage-dashboard)-[\w-]+\.(js|css)$/.test(name));
if (dashboardChunks.length < 2) {
  console.warn(`⚠ the dashboard's chunks were not found by name (${dashboardChunks.join(', ') || 'none'})`);
  over = true;
}
const dashboard = dashboardChunks.reduce((sum, name) => sum + gzipSync(readFileSync(join(dist, 'assets', name)), { level: 9 }).length, 0);
record("console dashboard page's own chunks (gzip, lazy)", dashboard / 1024, 'KiB', 260);

// run.ts: list calls on a big table; sign-ins.ts: the issuer's sign-ins per second and cold providers;
// lists.ts: the devices list and the audit log at 10 M events (a bulk load of several minutes);
// cluster/fault-test.ts (`npm run test:cluster`): sign-in p95 while an instance is killed and restarted.
const serverBenches = [...['run.ts', 'sign-ins.ts', 'lists.ts', 'webhooks.ts'].map((file) => join('bench', file)), join('cluster', 'fault-test.ts')];
for (const serverBench of serverBenches.map((file) => join(root, 'packages/server', file))) {
  if (!existsSync(serverBench)) continue;
  const r = spawnSync(process.execPath, ['--import', 'tsx', serverBench], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    console.error(r.stdout);
    process.exit(r.status ?? 1);
  }
  for (const line of r.stdout.trim().split('\n')) {
    if (!line.startsWith('{')) {
      console.log(line);
      continue;
    }
    const m = JSON.parse(line);
    record(m.name, m.value, m.unit, m.target, m.better);
  }
}

console.log('\n| figure | value | target |\n|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.value.toFixed(1)} ${r.unit} | ${r.target === undefined ? '—' : `${r.better === 'higher' ? '≥' : '≤'} ${r.target} ${r.unit}`}${r.ok ? '' : ` ⚠ ${r.better === 'higher' ? 'under' : 'over'}`} |`,
  );
}
process.exit(over ? 1 : 0);
