/**
 * Issuer bench (`node packages/server/bench/sign-ins.ts`, run by `npm run bench`) on
 * PostgreSQL, over real HTTP on loopback, the server in a process of its own (bench/issuer-server.ts)
 * and its clients — the load generator — in this one:
 *  0. single calls on an idle server, BENCH_SINGLE_CALLS in a row (median): an authorization request
 *     with a session to the code at the callback, the token exchange, userinfo, discovery; as the
 *     client timed them, and the server's own time on each beside it (its requests' arrival to their
 *     responses sent: what is left is loopback and the client's own work);
 *  1. end-to-end sign-ins per second: authorization request → the returning user's address →
 *     passkey assertion (software authenticator, a registered user) → the redirect back with the
 *     code → token exchange (code + PKCE + client secret, ID token verified against the JWKS), by
 *     BENCH_USERS concurrent virtual users for BENCH_SECONDS; p50/p95 of one whole sign-in.
 *  1b. a returning user's sign-in, authorization request → code at the callback (no token
 *     exchange), in both flows (issue 36): today's identifier-first on the shared path (the baseline)
 *     and passkey first on the project's own host ({project}.localhost, a second server process with
 *     ISSUER_DOMAIN=localhost; this process resolves *.localhost itself): HTTP requests and server
 *     time of one (measured in the server process: each request's arrival to its response sent,
 *     summed per sign-in, one at a time, median; the client's timing printed beside it), then sign-ins per
 *     second and p50/p95 at BENCH_USERS.
 *  2. refresh token grants per second, each client keeping its rotated refresh token;
 *  3. the cost of a cold Provider: the first discovery document of a project this instance has no
 *     provider for (state read + signing keys + new Provider + the request), median over
 *     BENCH_PROJECTS projects, both when its keys are stored (another instance, or an evicted
 *     one) and on the project's very first use (its RSA key generated); and a warm one to compare.
 * Prints one JSON line per figure ({name, value, unit, target, better?}); other lines are progress.
 * The database is a fresh `latchkey_bench_<random>`, dropped at the end.
 *
 *   LATCHKEY_BENCH_POSTGRES_URL   server to use (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_USERS                   concurrent virtual users (default 8)
 *   BENCH_SECONDS                 how long the sign-ins run (default 10; at most BENCH_MAX_SIGN_INS in all)
 *   BENCH_PROJECTS                projects for the cold-provider figure (default 20)
 *   BENCH_SINGLE_CALLS            calls in a row for each single-call median (default 50)
 *   BENCH_IDLE_SIGN_INS           returning-user sign-ins one at a time for requests and server time (default 20)
 *   BENCH_SQL_OF_SIGN_IN, BENCH_SQL_OF_REFRESH   print the statements of one sign-in, one refresh
 *   BENCH_SERVER_PROF             a folder: the server process writes its CPU profile there (a sample every 200 µs)
 *   BENCH_SERVER_ALLOC            a file: the server process writes its allocations there (sampled, collected ones too)
 *   BENCH_PARTS                   only these parts, comma-separated: single, sign-ins, returning, two, refresh, cold
 */
import { fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { freePort } from '../test/support/free-port.ts';
import { performance } from 'node:perf_hooks';
import * as client from 'openid-client';
import { API_BASE_PATH, api, buildPath, projectIssuerPath, type ApplicationKeys, type Endpoint } from '@latchkey/domain';
import { migrate } from '../src/db/migrate.ts';
import { Browser } from '../test/support/browser.ts';
import { resolveLocalNames } from '../test/support/localhost-names.ts';
import {
  authorizationUrl,
  discoverable,
  formAction,
  formWith,
  identifierFirst,
  REDIRECT,
  registerUser,
  settle,
  signIn,
  TimedBrowser,
  type User,
} from './sign-in-flow.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';
import type { Db } from '../src/db/db.ts';
import type { BenchAnswer, BenchHandling, BenchQuestion, BenchReady, BenchRequest } from './issuer-server.ts';
import { figure, percentile, say, timing } from './report.ts';

const SERVER_URL = process.env.LATCHKEY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = Number(process.env.BENCH_USERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const MAX_SIGN_INS = Number(process.env.BENCH_MAX_SIGN_INS ?? 10_000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 20);
const WARM_REQUESTS = 200;
/** Calls in a row for each single-call median. */
const SINGLE_CALLS = Number(process.env.BENCH_SINGLE_CALLS ?? 50);
/** Sign-ins one at a time on an otherwise idle server, for the requests and server time of one. */
const IDLE_SIGN_INS = Number(process.env.BENCH_IDLE_SIGN_INS ?? 20);
/** Rounds of every user signing in at once before a flow's figures. */
const WARM_ROUNDS = 5;

// A project's own host is {project}.localhost (docs/decisions/0047): this process resolves it as a browser would.
resolveLocalNames();

/** The server process, as the load generator sees it. */
interface Server {
  /** PUBLIC_URL */
  baseUrl: string;
  /** Where this instance listens (another instance's PUBLIC_URL may name another). */
  listenUrl: string;
  /** The sign-in code last "mailed" to `email`. */
  lastCode(email: string): Promise<string>;
  /** How many SQL statements it has run; `show`: print each from now on (or not). */
  statements(show?: boolean): Promise<number>;
  /** Its HTTP requests so far and the milliseconds it spent on them (arrival → response sent). */
  handling(): Promise<BenchHandling>;
  /** Headers of a new console session of an administrator of everything. */
  adminHeaders(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

const BENCH_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

/** The real app on the database at `databaseUrl`, in a process of its own, listening on loopback. */
async function startServer(databaseUrl: string, publicUrl?: string, issuerDomain?: string): Promise<Server> {
  const port = await freePort();
  const child = fork(new URL('./issuer-server.ts', import.meta.url), [], {
    // BENCH_SERVER_PROF=<dir>: a CPU profile of the server process, written there when it exits.
    // The server runs as `npm start` runs it (its young generation's size: docs/decisions/0054).
    execArgv: [
      '--max-semi-space-size=32',
      ...(process.env.BENCH_SERVER_PROF ? ['--cpu-prof', '--cpu-prof-interval=200', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : []),
    ],
    env: {
      ...process.env,
      BENCH_DATABASE_URL: databaseUrl,
      BENCH_PORT: String(port),
      BENCH_SECRET_KEY,
      ...(publicUrl ? { BENCH_PUBLIC_URL: publicUrl } : {}),
      ...(issuerDomain ? { BENCH_ISSUER_DOMAIN: issuerDomain } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let next = 0;
  const ready = await new Promise<BenchReady>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bench server exited (${code}) before it was ready`)));
    child.on('message', (message: BenchReady | BenchAnswer) => {
      if ('ready' in message) return resolve(message);
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.value);
    });
  });
  const ask = <T>(request: BenchQuestion): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      next += 1;
      pending.set(next, { resolve: resolve as (value: unknown) => void, reject });
      child.send({ ...request, id: next } satisfies BenchRequest);
    });
  return {
    baseUrl: ready.baseUrl,
    listenUrl: ready.listenUrl,
    lastCode: (email) => ask<string>({ kind: 'code', email }),
    statements: (show) => ask<number>({ kind: 'statements', ...(show === undefined ? {} : { show }) }),
    adminHeaders: () => ask<Record<string, string>>({ kind: 'admin' }),
    handling: () => ask<BenchHandling>({ kind: 'handling' }),
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await ask({ kind: 'close' }).catch(() => undefined);
      await exited;
    },
  };
}

/** Console API calls of one admin, through the app's inject (as the server tests do). */
async function adminApi(server: Server) {
  const headers = await server.adminHeaders();
  return async <T>(endpoint: Pick<Endpoint, 'path'>, params: Record<string, string>, payload: object): Promise<T> => {
    const path = `${API_BASE_PATH}${buildPath(endpoint.path, params)}`;
    const res = await fetch(`${server.listenUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const body = await res.text();
    if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${body}`);
    return JSON.parse(body) as T;
  };
}

/** A project with one OpenID Connect application and its keys (redirect URI REDIRECT). */
async function projectWithKeys(post: Awaited<ReturnType<typeof adminApi>>, n: number): Promise<{ projectId: string; keys: ApplicationKeys }> {
  const project = await post<{ id: string }>(api.createProject, {}, { name: `Bench ${n}`, pinLength: 4, email: 'bench-admin@example.test' });
  const app = await post<{ id: string }>(
    api.createApp,
    {},
    { platformCode: 'oidc', name: 'Bench app', url: 'https://app.example.com', projectId: project.id },
  );
  const keys = await post<ApplicationKeys>(api.createAppKeys, { application: app.id }, { redirectURI: [REDIRECT] });
  return { projectId: project.id, keys };
}

/** CPU milliseconds (user + system) of each PostgreSQL backend on the bench's database, by pid, from /proc (Linux; clock ticks of 10 ms). */
async function databaseCpu(db: Db): Promise<Map<number, number>> {
  const { rows } = await db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // Fields 14 and 15 (utime, stime) counted after the command name's closing parenthesis.
    const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields) cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
  }
  return cpu;
}

/**
 * Issue 38: where the CPU of a load goes — the server process, the database's backends, this load
 * generator — so the figure says what 2 cores can give (2,000 ms a second over their sum) whatever else
 * the machine was doing. A backend that ended meanwhile is not counted (the pool keeps them under load).
 */
async function cpuBudget(servers: Server[], db: Db): Promise<() => Promise<{ server: number; database: number; client: number }>> {
  const serverBefore = await Promise.all(servers.map((s) => s.handling()));
  const dbBefore = await databaseCpu(db);
  const clientBefore = process.cpuUsage();
  return async () => {
    const client = process.cpuUsage(clientBefore);
    const serverAfter = await Promise.all(servers.map((s) => s.handling()));
    const dbAfter = await databaseCpu(db);
    let database = 0;
    for (const [pid, ms] of dbAfter) database += ms - (dbBefore.get(pid) ?? 0);
    return {
      server: serverAfter.reduce((sum, after, i) => sum + after.cpuMs - (serverBefore[i] as BenchHandling).cpuMs, 0),
      database,
      client: (client.user + client.system) / 1000,
    };
  };
}

async function signInLoad(
  users: Array<{ server: Server; config: client.Configuration; user: User }>,
  db: Db,
): Promise<{ rate: number; times: number[] }> {
  const servers = [...new Set(users.map((u) => u.server))];
  const spent = await cpuBudget(servers, db);
  const times: number[] = [];
  let started = 0;
  const until = performance.now() + SECONDS * 1000;
  const begin = performance.now();
  await Promise.all(
    users.map(async ({ server, config, user }) => {
      while (performance.now() < until && started < MAX_SIGN_INS) {
        started += 1;
        const t0 = performance.now();
        await signIn(server, config, user);
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  const cpu = await spent();
  times.sort((a, b) => a - b);
  const rate = times.length / elapsed;
  const each = (ms: number) => (ms / times.length).toFixed(1);
  const sum = (cpu.server + cpu.database + cpu.client) / times.length;
  say(
    `  ${times.length} sign-ins in ${elapsed.toFixed(1)} s by ${users.length} virtual users: ${rate.toFixed(1)}/s, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
  );
  say(
    `  CPU per sign-in: server ${each(cpu.server)} ms, database ${each(cpu.database)} ms, load generator ${each(cpu.client)} ms; ${sum.toFixed(1)} ms in all, so 2 cores give at most ${(2000 / sum).toFixed(0)}/s`,
  );
  figure('server CPU per passkey sign-in (authorize → token, under load)', cpu.server / times.length, 'ms', undefined);
  figure('database CPU per passkey sign-in (authorize → token, under load)', cpu.database / times.length, 'ms', undefined);
  return { rate, times };
}

/**
 * Issue 23: the same load on two server processes on one database (each virtual user with one of
 * them, as behind a load balancer with sticky sessions), the load generator in a process of its own.
 */
async function twoProcessSignIns(first: Server, databaseUrl: string, db: Db): Promise<void> {
  const second = await startServer(databaseUrl);
  try {
    const users: Array<{ server: Server; config: client.Configuration; user: User }> = [];
    for (const [n, server] of [first, second].entries()) {
      const post = await adminApi(server);
      const { projectId, keys } = await projectWithKeys(post, 100 + n);
      const config = await client.discovery(
        new URL(`${server.baseUrl}${projectIssuerPath(projectId)}`),
        keys.clientId,
        keys.clientSecret,
        undefined,
        {
          execute: [client.allowInsecureRequests],
        },
      );
      for (let i = 0; i < USERS / 2; i += 1)
        users.push({ server, config, user: await registerUser(server, config, `bench-two-${n}-${i}@example.test`) });
    }
    for (const { server, config, user } of users) await signIn(server, config, user);
    say(`  two server processes on one database, ${users.length} users split between them:`);
    const { rate, times } = await signInLoad(users, db);
    figure(`passkey sign-ins per second, two server processes (${users.length} concurrent users)`, rate, '/s', 25, 'higher');
    figure('one whole passkey sign-in p95, two server processes', percentile(times, 95), 'ms', 600);
  } finally {
    await second.close();
  }
}

async function signInsPerSecond(server: Server, db: Db): Promise<void> {
  const post = await adminApi(server);
  const { projectId, keys } = await projectWithKeys(post, 0);
  const config = await client.discovery(new URL(`${server.baseUrl}${projectIssuerPath(projectId)}`), keys.clientId, keys.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const users: User[] = [];
  for (let i = 0; i < USERS; i += 1) users.push(await registerUser(server, config, `bench-user-${i}@example.test`));
  say(`  ${USERS} users registered with a passkey; warming up`);
  for (const user of users) await signIn(server, config, user);
  const before = await server.statements(Boolean(process.env.BENCH_SQL_OF_SIGN_IN));
  await signIn(server, config, users[0] as User);
  const statements = (await server.statements(false)) - before;
  say(`  one sign-in runs ${statements} SQL statements`);
  // Issue 22 aims at 25 (docs/decisions/0030 lists what each of them is).
  figure('SQL statements of one passkey sign-in (authorize → token)', statements, 'statements', 25);

  const { rate, times } = await signInLoad(
    users.map((user) => ({ server, config, user })),
    db,
  );
  // Issue 38's targets, for this 2-core machine with the load generator (browsers, authenticator,
  // relying party verifying each ID token) in a process beside the server's: 100 sign-ins/s and one
  // sign-in (6 requests and a token exchange) within 120 ms at p95 under 8 concurrent users (issue
  // 22 had asked for 25/s, p50 300 ms and p95 600 ms).
  figure(`passkey sign-ins per second, end to end (${USERS} concurrent users)`, rate, '/s', 100, 'higher');
  figure('one whole passkey sign-in p50 (authorize → assertion → token)', percentile(times, 50), 'ms', undefined);
  figure('one whole passkey sign-in p95 (authorize → assertion → token)', percentile(times, 95), 'ms', 120);
}

/** A returning user's sign-in, the authorization request opened → the code at the callback (no token exchange). */
type ReturningFlow = (browser: TimedBrowser, authorization: URL, user: User) => Promise<string>;

/**
 * Issue 36: a returning user's sign-in, page opened → code at the callback, in one flow: the HTTP
 * requests and server time of one (IDLE_SIGN_INS one at a time, median), then USERS virtual users
 * for SECONDS (sign-ins per second, p50/p95). Same load generator, same figures for both flows.
 */
async function returningUserFlow(label: string, server: Server, config: client.Configuration, users: User[], flow: ReturningFlow): Promise<void> {
  const once = async (user: User) => {
    const browser = new TimedBrowser();
    const back = await flow(browser, (await authorizationUrl(config)).url, user);
    if (!back.includes('code=')) throw new Error(`${label}: no code at the callback: ${back}`);
    return browser;
  };
  // Warm-up: the passkey-first server process is new, the baseline's has run sign-ins already; a few
  // rounds of every user at once get both past their first (unoptimised) runs of this flow's code.
  for (let round = 0; round < WARM_ROUNDS; round += 1) await Promise.all(users.map((user) => once(user)));
  const idle: TimedBrowser[] = [];
  // Measured in the server process (each request's arrival → its response sent) for each sign-in,
  // median: one slow sign-in (another process's burst on this shared machine) does not skew it; the
  // client's timing of the same requests (loopback and its own parsing added) is printed beside it.
  const serverTimes: number[] = [];
  for (let i = 0; i < IDLE_SIGN_INS; i += 1) {
    const before = await server.handling();
    const browser = await once(users[i % users.length] as User);
    const after = await server.handling();
    if (after.requests - before.requests !== browser.requests)
      throw new Error(`${label}: the server counted ${after.requests - before.requests} requests, the browser ${browser.requests}`);
    idle.push(browser);
    serverTimes.push(after.ms - before.ms);
  }
  const requests = idle.map((b) => b.requests).sort((a, b) => a - b);
  const clientMs = idle.map((b) => b.ms).sort((a, b) => a - b);
  const serverMs = percentile(
    serverTimes.sort((a, b) => a - b),
    50,
  );
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const begin = performance.now();
  let started = 0;
  await Promise.all(
    users.map(async (user) => {
      while (performance.now() < until && started < MAX_SIGN_INS) {
        started += 1;
        const t0 = performance.now();
        await once(user);
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  times.sort((a, b) => a - b);
  const rate = times.length / elapsed;
  say(
    `  ${label}: ${percentile(requests, 50)} requests, ${serverMs.toFixed(1)} ms of server time per sign-in (idle; ${percentile(clientMs, 50).toFixed(1)} ms timed by the client); ${times.length} sign-ins in ${elapsed.toFixed(1)} s by ${users.length} users: ${rate.toFixed(1)}/s, p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms`,
  );
  // Issue 38's targets for a returning user's sign-in: ≥ 100 per second and p95 ≤ 120 ms at 8 users;
  // the requests, the server time and p50 have none of their own (they compare the two flows).
  figure(`returning-user sign-in, ${label}: HTTP requests (authorize → code at the callback)`, percentile(requests, 50), 'requests', undefined);
  figure(`returning-user sign-in, ${label}: server time (arrival → response sent in the server process, idle, median)`, serverMs, 'ms', undefined);
  figure(`returning-user sign-ins per second, ${label} (${users.length} concurrent users)`, rate, '/s', 100, 'higher');
  figure(`returning-user sign-in p50, ${label}`, percentile(times, 50), 'ms', undefined);
  figure(`returning-user sign-in p95, ${label}`, percentile(times, 95), 'ms', 120);
}

/**
 * Issue 36: today's identifier-first sign-in on the shared path (the baseline, on `server`: no
 * issuer domain) beside the passkey-first one on a project's own host, on a server process of its
 * own with ISSUER_DOMAIN=localhost (its new projects live at {project}.localhost:{port}).
 */
async function returningUserSignIns(server: Server, databaseUrl: string): Promise<void> {
  const users = async (target: Server, config: client.Configuration, prefix: string) => {
    const list: User[] = [];
    for (let i = 0; i < USERS; i += 1) list.push(await registerUser(target, config, `${prefix}-${i}@example.test`));
    return list;
  };
  {
    const post = await adminApi(server);
    const { keys } = await projectWithKeys(post, 200);
    const config = await client.discovery(new URL(keys.issuer), keys.clientId, keys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const list = await users(server, config, 'bench-identifier-first');
    await returningUserFlow('identifier-first, shared path', server, config, list, (browser, url, user) =>
      identifierFirst(browser, url, user, server.baseUrl),
    );
  }
  const own = await startServer(databaseUrl, undefined, 'localhost');
  try {
    const post = await adminApi(own);
    const { projectId, keys } = await projectWithKeys(post, 201);
    if (!new URL(keys.issuer).hostname.startsWith(`${projectId}.`)) throw new Error(`the project is not on its own host: ${keys.issuer}`);
    const config = await client.discovery(new URL(keys.issuer), keys.clientId, keys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const list = await users(own, config, 'bench-passkey-first');
    await returningUserFlow('passkey first, own host', own, config, list, discoverable);
  } finally {
    await own.close();
  }
}

async function discoveryTime(baseUrl: string, projectId: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${baseUrl}${projectIssuerPath(projectId)}/.well-known/openid-configuration`);
  const body = (await res.json()) as { issuer?: string };
  const ms = performance.now() - t0;
  if (res.status !== 200 || !body.issuer) throw new Error(`discovery of ${projectId} answered ${res.status}`);
  return ms;
}

async function coldProviders(server: Server, databaseUrl: string): Promise<void> {
  const post = await adminApi(server);
  const projects: string[] = [];
  for (let i = 1; i <= PROJECTS; i += 1) projects.push((await projectWithKeys(post, i)).projectId);
  await discoveryTime(server.baseUrl, projects[0] as string); // the process's first provider (module warm-up) is not counted
  // First use ever: the project's signing key is generated and sealed, then the provider built.
  const firstUse: number[] = [];
  for (const projectId of projects.slice(1)) firstUse.push(await discoveryTime(server.baseUrl, projectId));
  // Another instance on the same database: keys stored, no provider built in its cache yet.
  const other = await startServer(databaseUrl, server.baseUrl);
  const otherUrl = other.listenUrl;
  try {
    await discoveryTime(otherUrl, projects[0] as string);
    const cold: number[] = [];
    for (const projectId of projects.slice(1)) cold.push(await discoveryTime(otherUrl, projectId));
    const warm: number[] = [];
    for (let i = 0; i < WARM_REQUESTS; i += 1) warm.push(await discoveryTime(otherUrl, projects[1 + (i % (projects.length - 1))] as string));
    for (const list of [firstUse, cold, warm]) list.sort((a, b) => a - b);
    say(
      `  discovery over ${projects.length - 1} projects: first use p50 ${percentile(firstUse, 50).toFixed(1)} ms, cold p50 ${percentile(cold, 50).toFixed(1)} ms (max ${(cold.at(-1) as number).toFixed(1)}), warm p50 ${percentile(warm, 50).toFixed(2)} ms p95 ${percentile(warm, 95).toFixed(2)} ms`,
    );
    // Targets: a cold provider (state, stored keys unsealed, new Provider, the request) within 50 ms;
    // a project's first use, which generates its 2048-bit RSA key, within 500 ms; warm within 5 ms.
    figure('cold provider: first discovery, keys stored (median)', percentile(cold, 50), 'ms', 50);
    figure("cold provider: a project's first discovery, key generated (median)", percentile(firstUse, 50), 'ms', 500);
    figure('warm provider: discovery (median)', percentile(warm, 50), 'ms', 5);
  } finally {
    await other.close();
  }
}

/**
 * Refresh token grants per second (issue 22): each virtual user signed in once with offline_access
 * and then refreshes again and again, keeping the rotated refresh token each time (openid-client,
 * client secret, the new ID token verified). Anchor: Keycloak's sizing guide, 120 refresh grants per
 * second per vCPU.
 */
async function refreshGrantsPerSecond(server: Server): Promise<void> {
  const post = await adminApi(server);
  const { projectId, keys } = await projectWithKeys(post, 1);
  const config = await client.discovery(new URL(`${server.baseUrl}${projectIssuerPath(projectId)}`), keys.clientId, keys.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const chains: string[] = [];
  for (let i = 0; i < USERS; i += 1) chains.push(await offlineSignIn(server, config, `bench-offline-${i}@example.test`));
  for (let i = 0; i < USERS; i += 1) chains[i] = (await client.refreshTokenGrant(config, chains[i] as string)).refresh_token as string;
  const before = await server.statements(Boolean(process.env.BENCH_SQL_OF_REFRESH));
  chains[0] = (await client.refreshTokenGrant(config, chains[0] as string)).refresh_token as string;
  say(`  one refresh runs ${(await server.statements(false)) - before} SQL statements`);
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  const begin = performance.now();
  await Promise.all(
    chains.map(async (first) => {
      let token = first;
      while (performance.now() < until && times.length < MAX_SIGN_INS * 10) {
        const t0 = performance.now();
        const answer = await client.refreshTokenGrant(config, token);
        token = answer.refresh_token as string;
        times.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - begin) / 1000;
  times.sort((a, b) => a - b);
  const rate = times.length / elapsed;
  say(
    `  ${times.length} refresh grants in ${elapsed.toFixed(1)} s by ${USERS} clients: ${rate.toFixed(1)}/s, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
  );
  // Twice Keycloak's 120 per vCPU on this 2-core machine (one server process; the clients in another).
  figure(`refresh token grants per second (${USERS} concurrent clients, rotation, ID token)`, rate, '/s', 480, 'higher');
  figure('one refresh token grant p95', percentile(times, 95), 'ms', 100);
}

/**
 * The median of `runs` calls made one after another (an idle server: nothing else runs meanwhile),
 * as the client timed each, and the median of the server's own time on each (its requests' arrival
 * to their responses sent, summed per call: loopback and the client's work excluded).
 */
async function medianOf(server: Server, runs: number, call: () => Promise<void>): Promise<{ client: number; server: number }> {
  const times: number[] = [];
  const serverTimes: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const before = await server.handling();
    const t0 = performance.now();
    await call();
    times.push(performance.now() - t0);
    serverTimes.push((await server.handling()).ms - before.ms);
  }
  return { client: timing(times).p50, server: timing(serverTimes).p50 };
}

/**
 * Single calls on an idle server, SINGLE_CALLS in a row from openid-client and the test Browser
 * (issue 38's aims): an authorization request by a browser that holds a session, from the request
 * to the code at the callback (its redirects included); the token exchange of such a code; userinfo
 * with its access token; the discovery document.
 */
async function singleCalls(server: Server): Promise<void> {
  const post = await adminApi(server);
  const { projectId, keys } = await projectWithKeys(post, 3);
  const config = await client.discovery(new URL(`${server.baseUrl}${projectIssuerPath(projectId)}`), keys.clientId, keys.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  const user = await registerUser(server, config, 'bench-single@example.test');
  const browser = new Browser();
  const first = await authorizationUrl(config);
  await identifierFirst(browser, first.url, user, server.baseUrl);
  const codes: Array<{ back: string; verifier: string }> = [];
  let requests = 0;
  const authorization = await medianOf(server, SINGLE_CALLS, async () => {
    const start = await authorizationUrl(config);
    const chain = await browser.follow(await browser.get(start.url.href), (url) => url.startsWith(REDIRECT));
    requests = chain.length;
    const back = chain.at(-1)?.location;
    if (!back?.startsWith(REDIRECT)) throw new Error(`the authorization with a session did not return to the app: ${chain.at(-1)?.status}`);
    codes.push({ back, verifier: start.verifier });
  });
  const tokens: string[] = [];
  let next = 0;
  const token = await medianOf(server, SINGLE_CALLS, async () => {
    const { back, verifier } = codes[next++] as { back: string; verifier: string };
    tokens.push((await client.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier })).access_token);
  });
  next = 0;
  const userinfo = await medianOf(server, SINGLE_CALLS, async () => {
    await client.fetchUserInfo(config, tokens[next++] as string, user.sub);
  });
  const discovery = await medianOf(server, SINGLE_CALLS, async () => {
    const res = await fetch(`${server.baseUrl}${projectIssuerPath(projectId)}/.well-known/openid-configuration`);
    await res.arrayBuffer();
  });
  const both = (m: { client: number; server: number }) => `${m.client.toFixed(1)} ms (server ${m.server.toFixed(1)} ms)`;
  say(
    `  single calls, ${SINGLE_CALLS} in a row on an idle server (median; the server's own time beside it): authorization with a session ${both(authorization)} in ${requests} request${requests === 1 ? '' : 's'}, token ${both(token)}, userinfo ${both(userinfo)}, discovery ${both(discovery)}`,
  );
  figure('single call: authorization with a session, to the code at the callback (median, idle)', authorization.client, 'ms', 6);
  figure('single call: token exchange (median, idle)', token.client, 'ms', 6);
  figure('single call: userinfo (median, idle)', userinfo.client, 'ms', 3);
  figure('single call: discovery (median, idle)', discovery.client, 'ms', undefined);
  figure("single call: the server's own time on an authorization with a session (median, idle)", authorization.server, 'ms', undefined);
  figure("single call: the server's own time on a token exchange (median, idle)", token.server, 'ms', undefined);
  figure("single call: the server's own time on userinfo (median, idle)", userinfo.server, 'ms', undefined);
}

/** A new user signs in with an emailed code asking for offline_access ("Not now" to the passkey); answers the refresh token. */
async function offlineSignIn(server: Server, config: client.Configuration, email: string): Promise<string> {
  const browser = new Browser();
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email offline_access',
    prompt: 'consent',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const emailPage = await settle(browser, await browser.get(url.href));
  const codePage = await settle(browser, await browser.request(formWith(emailPage, 'name="email"'), { form: { email } }));
  const offer = await settle(browser, await browser.request(formAction(codePage), { form: { code: await server.lastCode(email) } }));
  const back = await settle(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
  if (!back.location?.startsWith(REDIRECT))
    throw new Error(`the offline sign-in did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: verifier });
  if (!tokens.refresh_token) throw new Error('no refresh token for offline_access');
  return tokens.refresh_token;
}

const PARTS = process.env.BENCH_PARTS?.split(',').map((p) => p.trim());
const part = (name: string) => PARTS === undefined || PARTS.includes(name);

async function main(): Promise<void> {
  const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_bench');
  say(`Issuer bench: ${scratch.name} on ${new URL(scratch.url).host}`);
  let server: Server | null = null;
  try {
    await migrate(scratch.db);
    server = await startServer(scratch.url);
    if (part('single')) await singleCalls(server);
    if (part('sign-ins')) await signInsPerSecond(server, scratch.db);
    if (part('returning')) await returningUserSignIns(server, scratch.url);
    if (part('two')) await twoProcessSignIns(server, scratch.url, scratch.db);
    if (part('refresh')) await refreshGrantsPerSecond(server);
    if (part('cold')) await coldProviders(server, scratch.url);
  } finally {
    await server?.close();
    await scratch.drop();
    say(`  dropped ${scratch.name}`);
  }
}

main().catch((error: unknown) => {
  console.error('Issuer bench failed:', error);
  process.exit(1);
});
