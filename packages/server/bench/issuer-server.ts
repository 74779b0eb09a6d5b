/**
 * The server of the issuer bench (bench/sign-ins.ts), in a process of its own so the load generator
 * (browsers, the software authenticator, relying parties verifying every ID token) does not share its
 * event loop: forked with IPC, it builds the real app on BENCH_DATABASE_URL (PostgreSQL, migrated),
 * listens on BENCH_PORT and answers the bench's questions about what only it knows — the sign-in
 * codes it "mailed", the SQL statements it ran, a console session for the bench's admin.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { XSRF_COOKIE, XSRF_HEADER } from '@latchkey/domain';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { currentRequestId } from '../src/log.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { RecordingMailer } from '../test/support/fakes.ts';

/** A question of the bench, and its answer (`id` pairs them). */
export type BenchQuestion =
  { kind: 'admin' } | { kind: 'code'; email: string } | { kind: 'statements'; show?: boolean } | { kind: 'handling' } | { kind: 'close' };
/** What the server process spent on HTTP requests so far: how many, and milliseconds from each one's arrival to its response sent. */
export interface BenchHandling {
  requests: number;
  ms: number;
  /** CPU time of the whole server process so far (user + system), milliseconds. */
  cpuMs: number;
}
export type BenchRequest = BenchQuestion & { id: number };
export type BenchAnswer = { id: number; value?: unknown; error?: string };
export interface BenchReady {
  ready: true;
  baseUrl: string;
  listenUrl: string;
}

const counter = { statements: 0, show: false };
const handling = { requests: 0, ms: 0 };
/** Requests whose response is not sent yet ('finish' can come a turn after the client has read it all). */
let inFlight = 0;

/**
 * `db`, counting the statements run through it while serving a request (inside transactions too;
 * not the background jobs' polls, which would land in a sign-in's count by chance), printing them
 * while asked.
 */
function countingDb(db: Db): Db {
  return {
    query(sql, params) {
      if (currentRequestId() !== undefined) {
        counter.statements += 1;
        if (counter.show) process.stdout.write(`    sql: ${sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
      }
      return db.query(sql, params);
    },
    transaction: (fn) => db.transaction((tx) => fn(countingDb(tx))),
    exec: (sql) => db.exec(sql),
    close: () => db.close(),
  };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function main(): Promise<void> {
  const port = Number(process.env.BENCH_PORT);
  const config = loadConfig({
    PORT: String(port),
    PUBLIC_URL: process.env.BENCH_PUBLIC_URL ?? `http://127.0.0.1:${port}`,
    SECRET_KEY: process.env.BENCH_SECRET_KEY,
    // Each virtual user is an address of its own (X-Forwarded-For from loopback), as behind a proxy.
    TRUST_PROXY: '127.0.0.1',
    PROJECTS_PER_ACCOUNT: '1000',
    // docs/decisions/0047: with an issuer domain, new projects get a host (and a relying party) of their own.
    ...(process.env.BENCH_ISSUER_DOMAIN ? { ISSUER_DOMAIN: process.env.BENCH_ISSUER_DOMAIN } : {}),
  });
  // DATABASE_PREPARED_STATEMENTS=off: the sign-in path's statements planned at each call, as before issue 38 (for an A/B).
  const db = countingDb(
    openPostgres(process.env.BENCH_DATABASE_URL as string, { preparedStatements: process.env.DATABASE_PREPARED_STATEMENTS !== 'off' }),
  );
  const mailer = new RecordingMailer();
  const built = await buildApp({ config, db, mailer, logger: false, consoleDist: '/nonexistent/console/dist' });
  await built.app.listen({ host: '127.0.0.1', port });
  const allocations = process.env.BENCH_SERVER_ALLOC ? await allocationSampling(process.env.BENCH_SERVER_ALLOC) : null;
  // Each request's line before its statements, while they are shown.
  built.app.server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (counter.show) process.stdout.write(`  ${request.method} ${(request.url ?? '').split('?')[0]}\n`);
    // The server's own time on each request (issue 36's "server time per sign-in"), loopback and the client excluded.
    const t0 = performance.now();
    inFlight += 1;
    response.once('close', () => {
      inFlight -= 1;
      handling.requests += 1;
      handling.ms += performance.now() - t0;
    });
  });

  const answer = async (request: BenchRequest): Promise<unknown> => {
    switch (request.kind) {
      case 'admin': {
        const account = await insertAccount(db, { id: randomUUID(), email: `bench-admin-${randomUUID()}@example.test`, createdAt: new Date() });
        await grantPermissions(db, account.id, ['glb::*']);
        const session = await built.services.sessions.createSession(account.id, null);
        return { cookie: `${SESSION_COOKIE}=${session.sessionId}; ${XSRF_COOKIE}=${session.xsrfToken}`, [XSRF_HEADER]: session.xsrfToken };
      }
      case 'code':
        return mailer.lastCode(request.email);
      case 'handling':
        // Asked between sign-ins: every response has reached the client, so wait for the last one's event here.
        while (inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
        return { ...handling, cpuMs: cpuMs() } satisfies BenchHandling;
      case 'statements':
        if (request.show !== undefined) counter.show = request.show;
        return counter.statements;
      case 'close':
        await allocations?.();
        await built.close();
        setImmediate(() => process.exit(0));
        return null;
    }
  };
  process.on('message', (request: BenchRequest) => {
    answer(request).then(
      (value) => process.send?.({ id: request.id, value } satisfies BenchAnswer),
      (error: unknown) => process.send?.({ id: request.id, error: String(error) } satisfies BenchAnswer),
    );
  });
  // The bench going away takes this server with it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true, baseUrl: config.publicUrl, listenUrl: `http://127.0.0.1:${port}` } satisfies BenchReady);
}

/**
 * BENCH_SERVER_ALLOC=<file>: every allocation the server makes from now on, sampled (one in 32 KiB),
 * collected or not, written as a .heapprofile (Chrome DevTools' allocation sampling) when it closes.
 */
async function allocationSampling(file: string): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 32 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

main().catch((error: unknown) => {
  console.error('Bench server failed:', error);
  process.exit(1);
});
