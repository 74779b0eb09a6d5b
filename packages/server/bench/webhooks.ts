/**
 * Webhooks bench (`node packages/server/bench/webhooks.ts`, run by `npm run bench`):
 * how many webhook deliveries per second one server instance sends, and how long an event takes to
 * reach its receiver (issue 24, docs/decisions/0039). The server is the real one (buildApp on a
 * fresh PostgreSQL database, its outbox and guarded outgoing client); the events are written
 * the way the issuer writes a sign-in's (events/project-events.ts, the outbox in the same statement); the
 * receiver is an HTTP server on loopback that verifies every message's Standard Webhooks signature
 * with the `standardwebhooks` library and answers 204.
 *
 *  1. Throughput: ENDPOINTS endpoints, BURST events written as fast as one writer goes; deliveries per
 *     second from the first write to the last receipt (each endpoint's messages go in order, one at
 *     a time, so endpoints are the unit of parallelism).
 *  2. Latency: one endpoint, RATE events a second for SECONDS seconds; from the event's time to its
 *     receipt, p50 and p95. The writing instance nudges its sender (BENCH_WEBHOOK_NUDGE=0: it does
 *     not, as another instance would not: the sender then finds the message at its next poll).
 *
 * Prints one JSON line per figure ({name, value, unit, target, better}); other lines start with
 * something else. The database is a fresh `latchkey_webhooks_<random>`, dropped at the end.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { newProjectSettings } from '@latchkey/domain';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { systemClock } from '../src/clock.ts';
import { migrate } from '../src/db/migrate.ts';
import { countryLookup } from '../src/geoip.ts';
import { insertProject } from '../src/modules/projects/projects.repository.ts';
import { newWebhookSecret, secretContext } from '../src/modules/webhooks/webhook-delivery.ts';
import { insertEndpoint } from '../src/modules/webhooks/webhooks.repository.ts';
import { projectEvents } from '../src/events/project-events.ts';
import { WEBHOOK_KIND } from '../src/events/audit-events.repository.ts';
import { benchApp } from './bench-app.ts';
import { figure, percentile, say } from './report.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';

const SERVER_URL = process.env.LATCHKEY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENDPOINTS = Number(process.env.BENCH_WEBHOOK_ENDPOINTS ?? 10);
const BURST = Number(process.env.BENCH_WEBHOOK_BURST ?? 300);
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 10);
/** BENCH_WEBHOOK_NUDGE=0: the writer does not nudge the sender, which then finds messages at its poll (once a second). */
const NUDGE = process.env.BENCH_WEBHOOK_NUDGE !== '0';
/** A bench never waits longer than this for its deliveries. */
const DEADLINE_MS = 120_000;

/** The receiver: verifies each message with its endpoint's secret, keeps when it came and how late. */
async function startReceiver(secrets: Map<string, string>) {
  const received: Array<{ endpoint: string; id: string; at: number; lateMs: number }> = [];
  let invalid = 0;
  const body = (request: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      request.on('error', reject);
    });
  const server = createServer((request, response) => {
    void body(request).then((text) => {
      const endpoint = (request.url ?? '').slice(1);
      const secret = secrets.get(endpoint);
      try {
        if (!secret) throw new Error('no such endpoint');
        const message = new StandardWebhook(secret).verify(text, request.headers as Record<string, string>) as { data: { createdAt: string } };
        const at = Date.now();
        received.push({ endpoint, id: String(request.headers['webhook-id']), at, lateMs: at - Date.parse(message.data.createdAt) });
        response.writeHead(204).end();
      } catch {
        invalid += 1;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    invalid: () => invalid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + DEADLINE_MS;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function main(): Promise<void> {
  const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_webhooks');
  const { db } = scratch;
  say(`Webhooks bench: ${scratch.name}`);
  const secrets = new Map<string, string>();
  const receiver = await startReceiver(secrets);
  let closeApp: (() => Promise<void>) | null = null;
  try {
    await migrate(db);
    const built = await benchApp(db, { OUTGOING_ALLOWED_NETWORKS: '127.0.0.0/8' });
    closeApp = () => built.app.close();
    const { secretBox } = built.services;
    const now = new Date();

    /** A project with `count` endpoints at the receiver, each subscribed to successful sign-ins. */
    async function projectWithEndpoints(projectId: string, count: number) {
      await insertProject(db, { id: projectId, email: 'bench@example.test', createdBy: null, settings: newProjectSettings('Webhooks bench'), now });
      for (let i = 0; i < count; i += 1) {
        const id = `wh_${projectId}_${i}`;
        const secret = newWebhookSecret();
        secrets.set(id, secret);
        await insertEndpoint(db, {
          projectId,
          id,
          url: `${receiver.url}/${id}`,
          eventTypes: ['sign_in.succeeded'],
          enabled: true,
          description: '',
          secretSealed: secretBox.seal(secret, secretContext(projectId, id)),
          now,
        });
      }
      // What the issuer does at a sign-in, nudge included (app.ts wires the same).
      return projectEvents({
        db,
        clock: systemClock,
        secretBox,
        countries: countryLookup(),
        projectId,
        ...(NUDGE ? { webhooksQueued: () => built.services.outbox.nudgeSoon(WEBHOOK_KIND) } : {}),
      });
    }

    const signIn = (n: number) => ({
      scope: 'oidc' as const,
      status: 'success' as const,
      action: 'sign_in',
      userId: `person-${n}@example.test`,
      usage: 'oidc' as const,
      details: { method: 'passkey' },
    });
    const origin = { ip: '127.0.0.1', userAgent: 'bench', clientId: 'bench' };

    // 1. Throughput.
    const burst = await projectWithEndpoints('benchwebhookburst', ENDPOINTS);
    const expected = BURST * ENDPOINTS;
    say(`  throughput: ${BURST} events to ${ENDPOINTS} endpoints (${expected} deliveries)`);
    const started = performance.now();
    const startedAt = Date.now();
    for (let i = 0; i < BURST; i += 1) await burst.recordNow(origin, signIn(i));
    const written = performance.now() - started;
    await until(() => receiver.received.length >= expected, 'the burst');
    const lastAt = Math.max(...receiver.received.map((r) => r.at));
    const elapsed = lastAt - startedAt;
    say(`  events written in ${Math.round(written)} ms; last delivery ${elapsed} ms after the first write`);
    figure(`webhook deliveries per second (1 instance, ${ENDPOINTS} endpoints)`, (expected * 1000) / elapsed, '/s', 100, 'higher');
    // At least once, and here exactly once: no endpoint received a message twice.
    const byEndpoint = new Map<string, string[]>();
    for (const r of receiver.received) byEndpoint.set(r.endpoint, [...(byEndpoint.get(r.endpoint) ?? []), r.id]);
    const twice = [...byEndpoint.values()].filter((ids) => new Set(ids).size !== ids.length).length;
    if (twice > 0) say(`  ⚠ ${twice} endpoints received a message twice`);

    // 2. Latency at a steady rate.
    const steady = await projectWithEndpoints('benchwebhooksteady', 1);
    const before = receiver.received.length;
    const total = RATE * SECONDS;
    say(`  latency: ${RATE} events/s for ${SECONDS} s to 1 endpoint`);
    const t0 = performance.now();
    for (let i = 0; i < total; i += 1) {
      const due = t0 + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await steady.recordNow(origin, signIn(i));
    }
    await until(() => receiver.received.length >= before + total, 'the steady events');
    const late = receiver.received
      .slice(before)
      .map((r) => r.lateMs)
      .sort((a, b) => a - b);
    say(`  event to delivery: p50 ${percentile(late, 50)} ms, max ${late.at(-1)} ms`);
    figure('webhook event to delivery, p50', percentile(late, 50), 'ms', 100);
    figure('webhook event to delivery, p95', percentile(late, 95), 'ms', 250);
    figure('webhook messages refused by the receiver (bad signature)', receiver.invalid(), '', 0);
  } finally {
    await closeApp?.();
    await receiver.close();
    await scratch.drop();
  }
}

await main();
