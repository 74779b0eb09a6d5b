#!/usr/bin/env node
// `npm run bench`: speed and size figures, printed as a table. Not a pass/fail test: targets are
// stated beside each figure and exceeding one prints a warning and sets the exit code.
//  1. console first load: gzipped size of the JS and CSS that index.html loads before any route.
//  2. server: latency of list calls against a database seeded with many rows (packages/server/bench).
import { spawnSync } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'packages/console/dist');
const results = [];
let over = false;

function record(name, value, unit, target) {
  const ok = target === undefined || value <= target;
  if (!ok) over = true;
  results.push({ name, value, unit, target, ok });
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
record('console first load, JS + CSS (gzip)', (js + css) / 1024, 'KiB', 180);

const serverBench = join(root, 'packages/server/bench/run.ts');
if (existsSync(serverBench)) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', serverBench], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
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
    record(m.name, m.value, m.unit, m.target);
  }
}

console.log('\n| figure | value | target |\n|---|---|---|');
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.value.toFixed(1)} ${r.unit} | ${r.target === undefined ? '—' : `≤ ${r.target} ${r.unit}`}${r.ok ? '' : ' ⚠ over'} |`,
  );
}
process.exit(over ? 1 : 0);
