/**
 * `npm run test:cluster` (issue 23, docs/decisions/0036): two server instances behind HAProxy (the
 * repository's deploy/haproxy.cfg, Debian's haproxy) on a PostgreSQL primary of the test's own (made
 * with initdb on a free loopback port) with a hot standby made by pg_basebackup and replicated to
 * synchronously, under a bounded load of passkey sign-ins and console writes: (1) one instance is
 * killed with SIGKILL, then started again; (2) PostgreSQL is restarted; (3) the primary fails, the
 * standby is promoted and the instances are restarted on it. It fails unless every acknowledged
 * write is in the database (after the failover: on the promoted standby), every sign-in that failed
 * succeeds when started again, requests failed only within a few health-check intervals of each
 * fault, and the instances said they were not ready while the database was away and were ready
 * again by themselves. Prints the figures (requests failed, writes lost, time to recover, sign-in
 * p95), the bench's as JSON lines. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { freePort } from '../test/support/free-port.ts';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import * as client from 'openid-client';
import { API_BASE_PATH, api, buildPath, projectIssuerPath, XSRF_COOKIE, XSRF_HEADER, type ApplicationKeys, type Endpoint } from '@latchkey/domain';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';
import { REDIRECT, registerUser, signIn, type User } from '../bench/sign-in-flow.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const MAIN = resolve(ROOT, 'packages/server/src/main.ts');
const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');
const USERS = 6;
const LOAD_SECONDS = 27;
const KILL_AT_S = 3;
const RESTART_AT_S = 7;
const DATABASE_RESTART_AT_S = 11;
/** When the primary's machine fails, and the operator promotes the standby and points the instances at it. */
const FAILOVER_AT_S = 18;
const STANDBY = 'latchkey_standby';
/** How long PostgreSQL stays down in its restart. */
const DATABASE_DOWN_MS = 2000;
/** After the database is back, how long the instances may take to be ready and the requests to succeed again. */
const MAX_DATABASE_RECOVERY_MS = 5000;
/** The health check's interval × fall (deploy/haproxy.cfg: 500 ms × 2), with room for a slow machine. */
const MAX_FAILURE_WINDOW_MS = 3000;
/** After the instances run on the promoted standby, how long until requests succeed again (the balancer's rise). */
const MAX_FAILOVER_RECOVERY_MS = 3000;

const say = (line: string) => process.stdout.write(`${line}\n`);

/** The sign-in codes the instances "mailed" (their console mailer's JSON lines). */
const codes = new Map<string, string>();

function startInstance(name: string, port: number, env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let seen = '';
  const ready = new Promise<void>((ok, fail) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      for (const match of chunk.toString().matchAll(/Sign-in code for (\S+): (\d{6})/g)) codes.set(match[1] as string, match[2] as string);
      if (seen.includes('Latchkey is running at')) ok();
    });
    child.once('exit', (code, signal) => fail(new Error(`instance ${name} exited (${code ?? signal}) before it was ready`)));
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (process.env.CLUSTER_VERBOSE) process.stderr.write(`[${name}] ${chunk}`);
  });
  return { child, ready };
}

async function codeFor(email: string): Promise<string> {
  for (let i = 0; i < 100; i += 1) {
    const code = codes.get(email);
    if (code) return code;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  throw new Error(`no code was mailed to ${email}`);
}

async function until(url: string, status: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const answered = await fetch(url).then(
      (res) => res.status,
      () => 0,
    );
    if (answered === status) return;
    await new Promise((ok) => setTimeout(ok, 100));
  }
  throw new Error(`${url} did not answer ${status} within ${timeoutMs} ms`);
}

/** The PostgreSQL server binaries, run as the postgres user when this runs as root (initdb refuses root). */
function postgresTools() {
  const bin = ['17', '16', '15'].map((v) => `/usr/lib/postgresql/${v}/bin`).find((dir) => spawnSync(`${dir}/pg_ctl`, ['--version']).status === 0);
  if (!bin) throw new Error('PostgreSQL server binaries not found (apt-get install postgresql)');
  const asPostgres = process.getuid?.() === 0;
  const argv = (command: string, args: string[]): [string, string[]] =>
    asPostgres ? ['runuser', ['-u', 'postgres', '--', `${bin}/${command}`, ...args]] : [`${bin}/${command}`, args];
  return {
    /** A directory the server may own. */
    ownDir(prefix: string) {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      if (asPostgres)
        chownSync(dir, Number(spawnSync('id', ['-u', 'postgres']).stdout.toString()), Number(spawnSync('id', ['-g', 'postgres']).stdout.toString()));
      return dir;
    },
    run(command: string, args: string[]) {
      const done = spawnSync(...argv(command, args));
      if (done.status !== 0) throw new Error(`${command} failed: ${done.stderr.toString()}`);
    },
    /** An immediate stop of the server over `data`, if one runs. */
    stopQuietly(data: string) {
      spawnSync(...argv('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']));
    },
    /** The same, without holding this process's event loop (the load goes on meanwhile). */
    runAsync(command: string, args: string[]) {
      return new Promise<void>((ok, fail) => {
        const child = spawn(...argv(command, args));
        child.once('exit', (code) => (code === 0 ? ok() : fail(new Error(`${command} exited with ${code}`))));
      });
    },
  };
}
type PostgresTools = ReturnType<typeof postgresTools>;

/** One PostgreSQL server on `port` over the data directory `data` (in `dir`, removed by stop). */
function postgresServer(tools: PostgresTools, dir: string, data: string, port: number) {
  // A standby whose primary went away tries again every 200 ms (not 5 s): the restart below would hold every commit waiting for it.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 -c wal_retrieve_retry_interval=200ms`;
  const start = () => tools.runAsync('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  return {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    /** What an operator's restart does: a fast shutdown (sessions cut), down for `downMs` (a package upgrade), then start. */
    async restart(downMs: number) {
      await tools.runAsync('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      await new Promise((ok) => setTimeout(ok, downMs));
      await start();
    },
    /** The machine under it fails: no shutdown, sessions cut, nothing written after. */
    crash: () => tools.runAsync('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    /** A standby's promotion to primary (`pg_ctl promote` waits until it accepts writes). */
    promote: () => tools.runAsync('pg_ctl', ['-D', data, '-w', 'promote']),
    /** Stops it if it runs (a crashed primary does not) and removes its files. */
    stop() {
      tools.stopQuietly(data);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
type PostgresServer = ReturnType<typeof postgresServer>;

/** A primary of the test's own: initdb on `port`, started. */
async function ownPrimary(tools: PostgresTools, port: number): Promise<PostgresServer> {
  const dir = tools.ownDir('latchkey-cluster-pg-');
  const data = join(dir, 'data');
  tools.run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync']);
  const server = postgresServer(tools, dir, data, port);
  await server.start();
  return server;
}

/**
 * A streaming hot standby of `primary`, as an operator makes one: `pg_basebackup -R` (a copy of the
 * primary's files that starts as a standby of it), named `name` so that the primary can wait for it.
 */
async function ownStandby(tools: PostgresTools, primary: PostgresServer, port: number, name: string): Promise<PostgresServer> {
  const dir = tools.ownDir('latchkey-cluster-standby-');
  const data = join(dir, 'data');
  const conninfo = `host=127.0.0.1 port=${primary.port} user=postgres application_name=${name}`;
  tools.run('pg_basebackup', ['-d', conninfo, '-D', data, '-R', '-X', 'stream', '--no-sync']);
  const server = postgresServer(tools, dir, data, port);
  await server.start();
  return server;
}

/**
 * Makes `primary` commit only once `standby` has the commit too (synchronous_commit = on, the
 * standby named first), and waits until the standby is in sync: from here no acknowledged write can
 * be lost with the primary.
 */
async function replicateSynchronously(primary: PostgresServer, standbyName: string): Promise<void> {
  const admin = new pg.Client({ connectionString: primary.url });
  await admin.connect();
  try {
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '"${standbyName}"'`);
    await admin.query('SELECT pg_reload_conf()');
    for (let i = 0; i < 100; i += 1) {
      const { rows } = await admin.query<{ sync_state: string }>('SELECT sync_state FROM pg_stat_replication WHERE application_name = $1', [
        standbyName,
      ]);
      if (rows[0]?.sync_state === 'sync') return;
      await new Promise((ok) => setTimeout(ok, 100));
    }
    throw new Error(`the standby ${standbyName} did not come in sync`);
  } finally {
    await admin.end();
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  // Checked before anything starts: a missing HAProxy found later left this test's PostgreSQL
  // servers and instances running (the error ended the process before its clean-up).
  if (spawnSync('haproxy', ['-v']).error) {
    console.error("The cluster test needs Debian's haproxy (apt-get install haproxy; .ci/run installs it).");
    process.exit(1);
  }
  const tools = postgresTools();
  const postgres = await ownPrimary(tools, await freePort());
  const standby = await ownStandby(tools, postgres, await freePort(), STANDBY);
  await replicateSynchronously(postgres, STANDBY);
  const scratch = await createScratchPostgres(postgres.url, 'latchkey_cluster');
  const onStandby = new URL(scratch.url);
  onStandby.port = String(standby.port);
  const [front, portA, portB] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${front}`;
  const env = { DATABASE_URL: scratch.url, PUBLIC_URL: publicUrl, SECRET_KEY, TRUST_PROXY: '127.0.0.1', PROJECTS_PER_ACCOUNT: '100000' };
  const children: ChildProcess[] = [];
  let failed = false;
  try {
    await migrate(scratch.db);
    const a = startInstance('a', portA, env);
    const b = startInstance('b', portB, env);
    children.push(a.child, b.child);
    await Promise.all([a.ready, b.ready]);
    const running = { a: a.child, b: b.child };
    const haproxy = spawn('haproxy', ['-db', '-f', resolve(ROOT, 'deploy/haproxy.cfg')], {
      env: {
        ...process.env,
        LATCHKEY_FRONTEND: `127.0.0.1:${front}`,
        LATCHKEY_INSTANCE_A: `127.0.0.1:${portA}`,
        LATCHKEY_INSTANCE_B: `127.0.0.1:${portB}`,
      },
      stdio: ['ignore', 'ignore', process.env.CLUSTER_VERBOSE ? 'inherit' : 'ignore'],
    });
    children.push(haproxy);
    await until(`${publicUrl}/readyz`, 200);

    // An administrator's console session, made with the server's own code on the same database.
    const minted = await buildApp({ config: loadConfig({ ...env, PORT: '1' }), db: scratch.db, logger: false, consoleDist: '/nonexistent' });
    const account = await insertAccount(scratch.db, { id: randomUUID(), email: `cluster-admin-${randomUUID()}@example.test`, createdAt: new Date() });
    await grantPermissions(scratch.db, account.id, ['glb::*']);
    const session = await minted.services.sessions.createSession(account.id, null);
    await minted.app.close();
    const headers = {
      cookie: `${SESSION_COOKIE}=${session.sessionId}; ${XSRF_COOKIE}=${session.xsrfToken}`,
      [XSRF_HEADER]: session.xsrfToken,
      'content-type': 'application/json',
    };
    const post = async <T>(
      endpoint: Pick<Endpoint, 'path'>,
      params: Record<string, string>,
      payload: object,
    ): Promise<{ status: number; body: T }> => {
      const res = await fetch(`${publicUrl}${API_BASE_PATH}${buildPath(endpoint.path, params)}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(payload),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
    };

    // An application and its users, through the load balancer.
    const project = await post<{ id: string }>(api.createProject, {}, { name: 'Cluster', pinLength: 4, email: 'cluster@example.test' });
    const app = await post<{ id: string }>(
      api.createApp,
      {},
      { platformCode: 'oidc', name: 'App', url: 'https://app.example.com', projectId: project.body.id },
    );
    const keys = (await post<ApplicationKeys>(api.createAppKeys, { application: app.body.id }, { redirectURI: [REDIRECT] })).body;
    const config = await client.discovery(new URL(`${publicUrl}${projectIssuerPath(project.body.id)}`), keys.clientId, keys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const target = { baseUrl: publicUrl, lastCode: codeFor };
    const users: User[] = [];
    for (let i = 0; i < USERS; i += 1) users.push(await registerUser(target, config, `cluster-user-${i}@example.test`));
    say(
      `Two instances behind HAProxy on a PostgreSQL primary with a synchronous streaming standby (pg_basebackup); ${USERS} users, a console writer, ${LOAD_SECONDS} s; instance a killed at ${KILL_AT_S} s and started again at ${RESTART_AT_S} s; PostgreSQL restarted at ${DATABASE_RESTART_AT_S} s; the primary fails at ${FAILOVER_AT_S} s and the standby is promoted`,
    );

    // The load: sign-ins and console writes, each failure with its time.
    const begin = performance.now();
    const end = begin + LOAD_SECONDS * 1000;
    const acknowledged: string[] = [];
    const failures: Array<{ what: string; at: number; why: string }> = [];
    /** The users whose sign-in failed at least once: each starts again once afterwards. */
    const failedSignIns = new Set<User>();
    // A client that failed waits a moment before its next request, as browsers and apps do.
    const pause = () => new Promise((ok) => setTimeout(ok, 100));
    const times: number[] = [];
    /** Sign-ins that began while instance a was dead or starting again, and up to 2 s after. */
    const aroundTheKill: number[] = [];
    let signIns = 0;
    let writes = 0;
    const signInLoop = async (user: User) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await signIn(target, config, user);
          signIns += 1;
          times.push(performance.now() - t0);
          if (t0 - begin >= KILL_AT_S * 1000 && t0 - begin < (RESTART_AT_S + 2) * 1000) aroundTheKill.push(performance.now() - t0);
        } catch (error) {
          failures.push({ what: 'sign-in', at: performance.now() - begin, why: String(error).slice(0, 120) });
          failedSignIns.add(user);
          await pause();
        }
      }
    };
    const writeLoop = async () => {
      for (let n = 0; performance.now() < end; n += 1) {
        try {
          const created = await post<{ id?: string }>(api.createProject, {}, { name: `Write ${n}`, pinLength: 4, email: 'cluster@example.test' });
          if (created.status === 201 && created.body.id) {
            acknowledged.push(created.body.id);
            writes += 1;
          } else {
            failures.push({ what: 'write', at: performance.now() - begin, why: `status ${created.status}` });
            await pause();
          }
        } catch (error) {
          failures.push({ what: 'write', at: performance.now() - begin, why: String(error).slice(0, 120) });
          await pause();
        }
      }
    };
    // Each instance's readiness, asked directly every 100 ms (not through the balancer).
    const readiness: Array<{ at: number; a: number; b: number }> = [];
    const watch = (async () => {
      while (performance.now() < end) {
        const [ra, rb] = await Promise.all(
          [portA, portB].map((port) =>
            fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(3000) }).then(
              (res) => res.status,
              () => 0,
            ),
          ),
        );
        readiness.push({ at: performance.now() - begin, a: ra ?? 0, b: rb ?? 0 });
        await new Promise((ok) => setTimeout(ok, 100));
      }
    })();
    // When PostgreSQL actually went down and came back (a slow instance restart can delay the stop past DATABASE_RESTART_AT_S).
    let databaseDownAt = DATABASE_RESTART_AT_S * 1000;
    let databaseBackAt = 0;
    const failover = { promotedAt: 0, repointedAt: 0 };
    const faults = (async () => {
      await new Promise((ok) => setTimeout(ok, KILL_AT_S * 1000));
      running.a.kill('SIGKILL');
      say(`  ${((performance.now() - begin) / 1000).toFixed(1)} s: instance a killed (SIGKILL)`);
      await new Promise((ok) => setTimeout(ok, (RESTART_AT_S - KILL_AT_S) * 1000));
      const again = startInstance('a', portA, env);
      children.push(again.child);
      running.a = again.child;
      await again.ready;
      say(`  ${((performance.now() - begin) / 1000).toFixed(1)} s: instance a started again`);
      await new Promise((ok) => setTimeout(ok, Math.max(0, DATABASE_RESTART_AT_S * 1000 - (performance.now() - begin))));
      databaseDownAt = performance.now() - begin;
      say(`  ${(databaseDownAt / 1000).toFixed(1)} s: PostgreSQL stopping, for ${DATABASE_DOWN_MS / 1000} s`);
      await postgres.restart(DATABASE_DOWN_MS);
      databaseBackAt = performance.now() - begin;
      say(`  ${(databaseBackAt / 1000).toFixed(1)} s: PostgreSQL accepting connections again`);

      // Failover, as an operator does it: the primary's machine is gone; promote the standby, then
      // restart each instance (SIGTERM: it drains) with DATABASE_URL naming the promoted server.
      await new Promise((ok) => setTimeout(ok, Math.max(0, FAILOVER_AT_S * 1000 - (performance.now() - begin))));
      await postgres.crash();
      say(`  ${((performance.now() - begin) / 1000).toFixed(1)} s: the primary failed (immediate stop)`);
      await standby.promote();
      failover.promotedAt = performance.now() - begin;
      say(`  ${(failover.promotedAt / 1000).toFixed(1)} s: the standby promoted`);
      const repointed = { ...env, DATABASE_URL: onStandby.href };
      await Promise.all(
        (['a', 'b'] as const).map(async (name) => {
          const old = running[name];
          const gone = new Promise((ok) => old.once('exit', ok));
          old.kill('SIGTERM');
          await Promise.race([gone, new Promise((ok) => setTimeout(ok, 12_000))]);
          old.kill('SIGKILL');
          const started = startInstance(name, name === 'a' ? portA : portB, repointed);
          children.push(started.child);
          running[name] = started.child;
          await started.ready;
        }),
      );
      failover.repointedAt = performance.now() - begin;
      say(`  ${(failover.repointedAt / 1000).toFixed(1)} s: both instances running on the promoted standby`);
    })();
    await Promise.all([...users.map(signInLoop), writeLoop(), faults, watch]);

    // What was acknowledged is there; every failed sign-in succeeds when started again.
    // Read on the promoted standby: the writes acknowledged by the failed primary must be there too.
    const promoted = new pg.Client({ connectionString: onStandby.href });
    await promoted.connect();
    const { rows } = await promoted.query<{ id: string }>('SELECT id FROM projects WHERE id = ANY($1::text[])', [acknowledged]);
    await promoted.end();
    const lost = acknowledged.length - rows.length;
    let restarted = 0;
    for (const user of failedSignIns) {
      await signIn(target, config, user);
      restarted += 1;
    }
    times.sort((x, y) => x - y);
    const killAt = KILL_AT_S * 1000;
    const databaseAt = databaseDownAt;
    const killFailures = failures.filter((f) => f.at < databaseAt);
    const failoverAt = FAILOVER_AT_S * 1000;
    const databaseFailures = failures.filter((f) => f.at >= databaseAt && f.at < failoverAt);
    const failoverFailures = failures.filter((f) => f.at >= failoverAt);
    const lastFailoverFailure = failoverFailures.length === 0 ? failover.repointedAt : Math.max(...failoverFailures.map((f) => f.at));
    const resumed = lastFailoverFailure - failoverAt;
    const killWindow = killFailures.length === 0 ? 0 : Math.max(...killFailures.map((f) => f.at)) - killAt;
    const lastDatabaseFailure = databaseFailures.length === 0 ? databaseBackAt : Math.max(...databaseFailures.map((f) => f.at));
    // Both instances said they were not ready while the database was away.
    const meanwhile = readiness.filter((r) => r.at >= databaseAt + 300 && r.at <= databaseBackAt - 300);
    const notReadyMeanwhile = meanwhile.length > 0 && meanwhile.every((r) => r.a === 503 && r.b === 503);
    const readyAgain = readiness.find((r) => r.at > databaseBackAt && r.a === 200 && r.b === 200)?.at ?? Number.POSITIVE_INFINITY;
    say(
      `  ${signIns} sign-ins and ${writes} console writes acknowledged in ${LOAD_SECONDS} s; sign-in p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
    );
    say(`  instance killed: ${killFailures.length} requests failed, the last ${killWindow.toFixed(0)} ms after the kill`);
    say(
      `  PostgreSQL restarted: ${databaseFailures.length} requests failed, the last ${(lastDatabaseFailure - databaseBackAt).toFixed(0)} ms after it was back; /readyz said 503 meanwhile: ${notReadyMeanwhile}; both instances ready again ${(readyAgain - databaseBackAt).toFixed(0)} ms after it was back`,
    );
    if (process.env.CLUSTER_VERBOSE)
      for (const r of readiness.filter((x) => x.at > databaseAt - 500)) say(`    ${(r.at / 1000).toFixed(2)} a ${r.a} b ${r.b}`);
    for (const f of failures.slice(0, 4)) say(`    ${(f.at / 1000).toFixed(2)} s ${f.what}: ${f.why}`);
    say(
      `  primary failed: ${failoverFailures.length} requests failed; standby promoted ${(failover.promotedAt - failoverAt).toFixed(0)} ms after, instances running on it ${(failover.repointedAt - failoverAt).toFixed(0)} ms after; the last failure ${resumed.toFixed(0)} ms after the primary failed`,
    );
    say(
      `  acknowledged writes lost: ${lost} of ${acknowledged.length}; users whose sign-in failed, signing in again: ${restarted} of ${failedSignIns.size} succeeded`,
    );
    aroundTheKill.sort((x, y) => x - y);
    // For `npm run bench` (scripts/bench.mjs reads these lines).
    const figure = (name: string, value: number, unit: string) => say(JSON.stringify({ name, value: Math.round(value * 10) / 10, unit }));
    figure('cluster: sign-in p95 while an instance is killed and restarted', percentile(aroundTheKill, 95), 'ms');
    figure('cluster: sign-in p95 across every fault', percentile(times, 95), 'ms');
    figure('cluster: failover, primary failed to service resumed', resumed, 'ms');
    figure('cluster: acknowledged writes lost', lost, 'writes');
    if (lost !== 0) failed = true;
    if (killWindow > MAX_FAILURE_WINDOW_MS) failed = true;
    if (lastDatabaseFailure - databaseBackAt > MAX_DATABASE_RECOVERY_MS || readyAgain - databaseBackAt > MAX_DATABASE_RECOVERY_MS) failed = true;
    if (!notReadyMeanwhile) failed = true;
    if (lastFailoverFailure - failover.repointedAt > MAX_FAILOVER_RECOVERY_MS) failed = true;
    if (restarted !== failedSignIns.size) failed = true;
    if (failed) say('FAILED: a write was lost, requests failed for too long, or readiness did not follow the database');
    else say('ok');
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await scratch.db.close().catch(() => undefined);
    postgres.stop();
    standby.stop();
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error('The cluster test could not run:', error);
  process.exit(1);
});
