import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../src/db/postgres.ts';
import { PROBE_TIMEOUT_MS } from '../src/http/probes.ts';
import { loadMigrations } from '../src/db/migrate.ts';
import { freePort, startTestApp, TEST_SECRET_KEY, useTestApp, type TestApp } from './support/app.ts';
import { createTestPostgres, describeEachDatabase, TEST_POSTGRES_URL } from './support/databases.ts';

const main = resolve(import.meta.dirname, '../src/main.ts');

// Issue 23 "Probes and shutdown": what a load balancer or an orchestrator asks an instance.
describeEachDatabase('health probes', (d) => {
  const t = useTestApp(d);
  const probe = (path: string, host = '10.0.0.5:3000') => t.app.inject({ method: 'GET', url: path, headers: { host } });

  it('answer on the instance’s own address, with no session, in a few bytes of JSON never cached', async () => {
    for (const host of ['10.0.0.5:3000', '[fd00::5]:3000', 'localhost:8080', 'instance-3.internal:3000']) {
      const health = await probe('/healthz', host);
      expect(health.statusCode, host).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      const ready = await probe('/readyz', host);
      expect(ready.statusCode, host).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
      expect(ready.headers['cache-control']).toBe('no-store');
      expect(ready.headers['set-cookie']).toBeUndefined();
      expect(ready.body.length).toBeLessThan(100);
    }
  });

  it('readiness fails while a migration this code knows is not applied, and while the master key cannot open the stored keys', async () => {
    const latest = loadMigrations().at(-1)?.version as string;
    await d.db.query('DELETE FROM schema_migrations WHERE version = $1', [latest]);
    try {
      const pending = await probe('/readyz');
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'pending', keys: 'ok' } });
    } finally {
      await d.db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [latest]);
    }
    const { rows } = await d.db.query<{ sealed: string }>("SELECT sealed FROM server_keys WHERE name = 'provider.cookie_keys'");
    const sealed = rows[0]?.sealed as string;
    // The same key sealed under another master key (a database restored without its key).
    const other = `${sealed.slice(0, -8)}${sealed.slice(-8).split('').reverse().join('')}`;
    await d.db.query("UPDATE server_keys SET sealed = $1 WHERE name = 'provider.cookie_keys'", [other]);
    try {
      const locked = await probe('/readyz');
      expect(locked.statusCode).toBe(503);
      expect(locked.json()).toEqual({ status: 'not ready', checks: { database: 'ok', migrations: 'ok', keys: 'unopenable' } });
    } finally {
      await d.db.query("UPDATE server_keys SET sealed = $1 WHERE name = 'provider.cookie_keys'", [sealed]);
    }
    expect((await probe('/readyz')).statusCode).toBe(200);
  });

  it('readiness turns false once the instance is shutting down; liveness does not', async () => {
    const other = await startTestApp(d.db);
    try {
      other.probes.shuttingDown();
      const ready = await other.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ status: 'not ready', checks: { shutdown: 'stopping' } });
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});

describe('with the database down [postgres]', () => {
  let app: TestApp;
  let database: Awaited<ReturnType<typeof createTestPostgres>>;
  let dist: string;
  const admin = openPostgres(TEST_POSTGRES_URL);
  const name = () => new URL(database.url).pathname.slice(1);
  beforeAll(async () => {
    database = await createTestPostgres();
    dist = mkdtempSync(join(tmpdir(), 'latchkey-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Latchkey console</title>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    app = await startTestApp(database.db, { consoleDist: dist });
  });
  afterAll(async () => {
    await admin.query(`ALTER DATABASE "${name()}" ALLOW_CONNECTIONS true`).catch(() => undefined);
    await app?.close();
    await database?.drop();
    await admin.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('the probes and the console’s files keep answering, readiness says why, and comes back with the database', async () => {
    const get = (url: string, host = '10.0.0.5:3000') => app.app.inject({ method: 'GET', url, headers: { host } });
    expect((await get('/readyz')).statusCode).toBe(200);
    // Several connections open and idle in the pool: behind a pooler they stay open to it while the
    // database is gone, and a query sent on one is held instead of failing (the lookup's deadline).
    await Promise.all(Array.from({ length: 8 }, () => database.db.query('SELECT pg_sleep(0.05)')));
    // The database refuses every connection, and those open are cut, as when its server stops.
    await admin.query(`ALTER DATABASE "${name()}" ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name()]);

    const started = Date.now();
    const down = await get('/readyz');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(down.statusCode).toBe(503);
    // Refused at once by PostgreSQL, or held by a pooler in front of it until the probe's deadline.
    expect(down.json()).toMatchObject({ status: 'not ready', checks: { database: expect.stringMatching(/^(failed|timeout)$/) } });
    expect((await get('/healthz')).statusCode).toBe(200);
    // The console's files on the instance's address and on any other name (a custom domain's
    // lookup cannot be made: it falls back to the console's own routes).
    for (const host of ['10.0.0.5:3000', 'login.example.com']) {
      for (const path of ['/', '/assets/app-abc123.js']) {
        const asked = Date.now();
        expect((await get(path, host)).statusCode, `${host}${path}`).toBe(200);
        expect(Date.now() - asked, `${host}${path}`).toBeLessThan(PROBE_TIMEOUT_MS + 1000);
      }
    }

    await admin.query(`ALTER DATABASE "${name()}" ALLOW_CONNECTIONS true`);
    await expect.poll(async () => (await get('/readyz')).statusCode, { timeout: 10_000, interval: 100 }).toBe(200);
  });
});

describe('SIGTERM', () => {
  it('turns readiness false at once, lets a request under way finish, and exits with 0', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'latchkey-shutdown-'));
    const port = await freePort();
    // A copy of the run's migrated PostgreSQL template: the instance starts without migrating (an
    // empty PGlite took ~13 s of this test's 16 s; startup.test.ts starts from nothing).
    const database = await createTestPostgres();
    const child = spawn(process.execPath, [main], {
      env: {
        ...process.env,
        DATA_DIR: dir,
        DATABASE_URL: database.url,
        SECRET_KEY: TEST_SECRET_KEY,
        LOG_LEVEL: 'silent',
        PORT: String(port),
        SHUTDOWN_DELAY_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
    const base = `http://127.0.0.1:${port}`;
    try {
      await expect.poll(() => text, { timeout: 30_000, interval: 100 }).toContain('Latchkey is running at');
      expect((await fetch(`${base}/readyz`)).status).toBe(200);

      // A request under way: its headers are in, its body comes after the signal (a sign-in page's
      // form: read whole before it is answered).
      const body = 'email=someone%40example.com';
      let answeredAt = 0;
      const answered = new Promise<number>((ok, fail) => {
        const call = httpRequest(`${base}/p/noproject/interaction/nointeraction/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        });
        call.on('response', (response) => {
          answeredAt = Date.now();
          response.resume();
          ok(response.statusCode ?? 0);
        });
        call.on('error', fail);
        call.flushHeaders();
        setTimeout(() => call.end(body), 1800);
      });
      await new Promise((ok) => setTimeout(ok, 200));
      child.kill('SIGTERM');
      const signalledAt = Date.now();
      await expect.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 900, interval: 50 }).toBe(503);
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // Answered although the server stopped listening meanwhile (no such sign-in: a 4xx page).
      expect(await answered).toBeGreaterThanOrEqual(400);
      expect(await answered).toBeLessThan(500);
      expect(answeredAt - signalledAt).toBeGreaterThan(1000);
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
