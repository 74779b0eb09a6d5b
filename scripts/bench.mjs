#!/usr/bin/env node
// `npm run bench`: speed and size figures, printed as a table. Not a pass/fail test: targets are
// stated beside each figure and exceeding one prints a warning and sets the exit code.
//  1. console first load: bytes on the wire of index.html and the JS and CSS it loads before any
//     route, from the real server with a browser's Accept-Encoding (brotli; gzip and uncompressed
//     beside it); the dashboard's lazy chunks (the charts and the map), and everything opening a
//     dashboard fetches on top of the first load (those chunks and the shared ones Vite preloads with them).
//  2. server: latency of list calls against a database seeded with many rows (packages/server/bench/run.ts).
//  3. issuer: end-to-end passkey sign-ins per second, a returning user's sign-in identifier-first
//     beside passkey first (requests, server time, rate, p95), the cost of a cold provider (bench/sign-ins.ts).
//  4. devices list and audit log at 10 M events / 1 M devices, and the Keycloak-shaped ratio (bench/lists.ts).
//  5. webhooks: deliveries per second and the time from an event to its delivery (bench/webhooks.ts).
//  6. user import: users per second for a million-line file and the server's peak memory (bench/import.ts).
//  7. the enrollment funnel's read at a million people a project (bench/enrollment-funnel.ts).
//  7. the cluster's faults: sign-in p95 while an instance is killed and restarted, failover (cluster/fault-test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'packages/console/dist');
const results = [];
let over = false;

/** What Chrome sends. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/** The real server (`npm start`'s entry) on a free port and a scratch data folder; resolves once it says where it runs. */
async function startServer() {
  const port = await new Promise((ok) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => ok(free));
    });
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
  // The embedded database, whatever the shell names.
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATABASE_READ_URL;
  const child = spawn(process.execPath, [join(root, 'packages/server/src/main.ts')], {
    cwd: root,
    env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((ok) => child.once('exit', ok));
  const url = await new Promise((ok, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const running = /Latchkey is running at (\S+?)"/.exec(out);
      if (running) ok(`http://127.0.0.1:${port}`);
    });
    child.once('exit', (code) => fail(new Error(`the server stopped (${code}) before it was running:\n${out}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One GET as a browser makes it: the body's bytes as they came on the wire (not decoded), and their encoding. */
function download(base, path, acceptEncoding) {
  return new Promise((ok, fail) => {
    get(`${base}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
      if (res.statusCode !== 200) fail(new Error(`GET ${path}: ${res.statusCode}`));
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => ok({ body: Buffer.concat(chunks), encoding: res.headers['content-encoding'] }));
    }).on('error', fail);
  });
}

// A target is a ceiling, or a floor for a figure where more is better (`better: 'higher'`, e.g. sign-ins/s).
function record(name, value, unit, target, better = 'lower') {
  const ok = target === undefined || (better === 'higher' ? value >= target : value <= target);
  if (!ok) over = true;
  results.push({ name, value, unit, target, better, ok });
}

console.log('Building the console…');
const build = spawnSync('npm', ['run', '--silent', 'build', '-w', '@latchkey/console'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

// Issue 38: bytes on the wire, through the real server as `npm start` runs it (its embedded database
// in a scratch folder), asked with a browser's Accept-Encoding; not files compressed here.
const server = await startServer();
try {
  const html = (await download(server.url, '/', 'identity')).body.toString();
  const firstLoad = ['/', ...new Set([...html.matchAll(/(?:src|href)="(\/?assets\/[^"]+\.(?:js|css))"/g)].map((m) => `/${m[1].replace(/^\//, '')}`))];
  // The dashboard's own chunks (issue 10: the chart, the map and the world's shapes), fetched only when a dashboard
  // opens, on top of the first load. Named after their modules (dashboard-page.tsx, usage-dashboard.tsx).
  const dashboardChunks = readdirSync(join(dist, 'assets')).filter((name) => /^(dashboard-page|usage-dashboard)-[\w-]+\.(js|css)$/.test(name));
  if (dashboardChunks.length < 2) {
    console.warn(`⚠ the dashboard's chunks were not found by name (${dashboardChunks.join(', ') || 'none'})`);
    over = true;
  }
  const wire = async (paths, accept) => {
    let bytes = 0;
    for (const path of paths) {
      const { body, encoding } = await download(server.url, path, accept);
      // A file of a few hundred bytes that compression would not make smaller has no copy (precompress.mjs).
      if (accept !== 'identity' && encoding === undefined && body.length > 1024) console.warn(`⚠ ${path} was sent uncompressed to ${accept}`);
      bytes += body.length;
    }
    return bytes / 1024;
  };
  const dashboard = dashboardChunks.map((name) => `/assets/${name}`);
  // Everything a browser fetches when a dashboard opens, on top of the first load: the page's
  // chunk and each file Vite preloads with it (the list the first load's chunk holds for that
  // import: its own chunks and the shared ones — Mantine's table, select…). Counted so that bytes
  // moved out of the named chunks (another chunk, a lazy map file) are still counted somewhere.
  const opening = [];
  for (const path of firstLoad.filter((p) => p.endsWith('.js'))) {
    const text = (await download(server.url, path, 'identity')).body.toString();
    const preload = /import\(`\.\/(dashboard-page-[\w-]+\.js)`\),__vite__mapDeps\(\[([\d,]*)\]\)/.exec(text);
    const files = /m\.f=\[([^\]]*)\]/.exec(text);
    if (!preload || !files) continue;
    const list = JSON.parse(`[${files[1]}]`);
    opening.push(`/assets/${preload[1]}`, ...preload[2].split(',').map((i) => `/${list[Number(i)]}`));
  }
  const dashboardOpening = [...new Set(opening)].filter((path) => !firstLoad.includes(path));
  if (!dashboardOpening.includes(dashboard.find((p) => p.includes('usage-dashboard') && p.endsWith('.js')))) {
    console.warn(`⚠ the files the dashboard preloads were not found in the first load's chunk (${dashboardOpening.length})`);
    over = true;
  }
  record('console first load on the wire: index.html + JS + CSS, uncompressed', await wire(firstLoad, 'identity'), 'KiB');
  record('console first load on the wire (gzip)', await wire(firstLoad, 'gzip, deflate'), 'KiB', 150);
  record('console first load on the wire (brotli, Chrome’s Accept-Encoding)', await wire(firstLoad, BROWSER_ACCEPT_ENCODING), 'KiB', 130);
  record("console dashboard page's own chunks on the wire (gzip, lazy)", await wire(dashboard, 'gzip, deflate'), 'KiB', 150);
  record("console dashboard page's own chunks on the wire (brotli, lazy)", await wire(dashboard, BROWSER_ACCEPT_ENCODING), 'KiB');
  record(
    `console dashboard opening: all ${dashboardOpening.length} files fetched after the first load (gzip)`,
    await wire(dashboardOpening, 'gzip, deflate'),
    'KiB',
  );
  record(
    `console dashboard opening: all ${dashboardOpening.length} files fetched after the first load (brotli)`,
    await wire(dashboardOpening, BROWSER_ACCEPT_ENCODING),
    'KiB',
  );
} finally {
  await server.stop();
}

// run.ts: list calls on a big table; sign-ins.ts: the issuer's sign-ins per second and cold providers;
// lists.ts: the devices list and the audit log at 10 M events (a bulk load of several minutes);
// cluster/fault-test.ts (`npm run test:cluster`): sign-in p95 while an instance is killed and restarted.
// `npm run bench -- size`: the size figures alone (a minute, not fifteen).
const sizeOnly = process.argv.slice(2).includes('size');
const serverBenches = sizeOnly
  ? []
  : [
      ...['run.ts', 'sign-ins.ts', 'lists.ts', 'webhooks.ts', 'import.ts', 'enrollment-funnel.ts'].map((file) => join('bench', file)),
      join('cluster', 'fault-test.ts'),
    ];
for (const serverBench of serverBenches.map((file) => join(root, 'packages/server', file))) {
  if (!existsSync(serverBench)) continue;
  const r = spawnSync(process.execPath, [serverBench], {
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
