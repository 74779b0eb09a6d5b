/**
 * `npm run test:cluster` (issue 23, docs/decisions/0036): two server instances behind HAProxy (the
 * repository's deploy/haproxy.cfg, Debian's haproxy) on one PostgreSQL, all on loopback ports, under
 * a bounded load of passkey sign-ins and console writes; one instance is killed with SIGKILL, then
 * started again. It fails unless every acknowledged write is in the database, every sign-in that
 * failed succeeds when started again, and requests failed only within a few health-check intervals.
 * Prints the figures (requests failed, writes lost, time to recover, sign-in p95).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as client from 'openid-client';
import { API_BASE_PATH, api, buildPath, projectIssuerPath, XSRF_COOKIE, XSRF_HEADER, type ApplicationKeys, type Endpoint } from '@latchkey/domain';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';
import { REDIRECT, registerUser, signIn, type User } from '../bench/sign-in-flow.ts';

const SERVER_URL = process.env.LATCHKEY_CLUSTER_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROOT = resolve(import.meta.dirname, '../../..');
const MAIN = resolve(ROOT, 'packages/server/src/main.ts');
const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');
const USERS = 6;
const LOAD_SECONDS = 12;
const KILL_AT_S = 3;
const RESTART_AT_S = 7;
/** The health check's interval × fall (deploy/haproxy.cfg: 500 ms × 2), with room for a slow machine. */
const MAX_FAILURE_WINDOW_MS = 3000;

const say = (line: string) => process.stdout.write(`${line}\n`);

async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => ok(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The sign-in codes the instances "mailed" (their console mailer's JSON lines). */
const codes = new Map<string, string>();

function startInstance(name: string, port: number, env: Record<string, string>): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
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

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function main(): Promise<void> {
  const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_cluster');
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
      `Two instances behind HAProxy on one PostgreSQL; ${USERS} users, a console writer; instance a killed at ${KILL_AT_S} s, started again at ${RESTART_AT_S} s`,
    );

    // The load: sign-ins and console writes, each failure with its time.
    const begin = performance.now();
    const end = begin + LOAD_SECONDS * 1000;
    const acknowledged: string[] = [];
    const failures: Array<{ what: string; at: number; why: string }> = [];
    const failedSignIns: User[] = [];
    const times: number[] = [];
    let signIns = 0;
    let writes = 0;
    const signInLoop = async (user: User) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await signIn(target, config, user);
          signIns += 1;
          times.push(performance.now() - t0);
        } catch (error) {
          failures.push({ what: 'sign-in', at: performance.now() - begin, why: String(error).slice(0, 120) });
          failedSignIns.push(user);
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
          } else failures.push({ what: 'write', at: performance.now() - begin, why: `status ${created.status}` });
        } catch (error) {
          failures.push({ what: 'write', at: performance.now() - begin, why: String(error).slice(0, 120) });
        }
      }
    };
    const faults = (async () => {
      await new Promise((ok) => setTimeout(ok, KILL_AT_S * 1000));
      a.child.kill('SIGKILL');
      say(`  ${((performance.now() - begin) / 1000).toFixed(1)} s: instance a killed (SIGKILL)`);
      await new Promise((ok) => setTimeout(ok, (RESTART_AT_S - KILL_AT_S) * 1000));
      const again = startInstance('a', portA, env);
      children.push(again.child);
      await again.ready;
      say(`  ${((performance.now() - begin) / 1000).toFixed(1)} s: instance a started again`);
    })();
    await Promise.all([...users.map(signInLoop), writeLoop(), faults]);

    // What was acknowledged is there; every failed sign-in succeeds when started again.
    const { rows } = await scratch.db.query<{ id: string }>('SELECT id FROM projects WHERE id = ANY($1::text[])', [acknowledged]);
    const lost = acknowledged.length - rows.length;
    let restarted = 0;
    for (const user of failedSignIns) {
      await signIn(target, config, user);
      restarted += 1;
    }
    const window = failures.length === 0 ? 0 : Math.max(...failures.map((f) => f.at)) - Math.min(...failures.map((f) => f.at));
    times.sort((x, y) => x - y);
    say(
      `  ${signIns} sign-ins and ${writes} console writes acknowledged in ${LOAD_SECONDS} s; sign-in p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
    );
    say(
      `  requests failed: ${failures.length} (${failures.filter((f) => f.what === 'sign-in').length} sign-ins, ${failures.filter((f) => f.what === 'write').length} writes), within ${window.toFixed(0)} ms`,
    );
    for (const f of failures.slice(0, 5)) say(`    ${(f.at / 1000).toFixed(2)} s ${f.what}: ${f.why}`);
    say(`  acknowledged writes lost: ${lost}; failed sign-ins started again and succeeded: ${restarted} of ${failedSignIns.length}`);
    if (lost !== 0) failed = true;
    if (window > MAX_FAILURE_WINDOW_MS) failed = true;
    if (failed) say('FAILED: a write was lost, or requests failed for longer than the health checks allow');
    else say('ok');
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await scratch.drop().catch(() => undefined);
  }
  process.exit(failed ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error('The cluster test could not run:', error);
  process.exit(1);
});
