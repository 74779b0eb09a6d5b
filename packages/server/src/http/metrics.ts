import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/db.ts';
import type { Mailer } from '../mail/mailer.ts';

/**
 * The server's Prometheus metrics (issue 23, docs/decisions/0032), in the text exposition format at
 * `GET /metrics` with prom-client. Labels are bounded sets (route templates, methods, statuses,
 * results, limit names): never a user, an address, a project or a client id.
 */
export function createMetrics() {
  const registry = new Registry();
  /** Where the pool's state is read when scraped (measuredDb sets it; PGlite has no pool). */
  let pool: (() => { total: number; idle: number; waiting: number }) | null = null;
  // The process's own (CPU, memory, heap, GC, handles) and the event loop's lag, under their standard names.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: 'latchkey_http_requests_total',
      help: 'HTTP requests answered, by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: 'latchkey_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route template, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    signIns: new Counter({
      name: 'latchkey_sign_ins_total',
      help: "Sign-ins at the projects' issuers, by result (success, failed, denied, disabled)",
      labelNames: ['result'] as const,
      registers,
    }),
    registrations: new Counter({
      name: 'latchkey_registrations_total',
      help: 'Passkeys registered at the projects’ issuers, by result',
      labelNames: ['result'] as const,
      registers,
    }),
    refusals: new Counter({
      name: 'latchkey_refusals_total',
      help: 'Requests the issuers refused (a wrong code, a revoked passkey, a refused request), by what was refused',
      labelNames: ['action', 'result'] as const,
      registers,
    }),
    tokenGrants: new Counter({
      name: 'latchkey_token_grants_total',
      help: 'Token endpoint grants, by grant type and result',
      labelNames: ['grant_type', 'result'] as const,
      registers,
    }),
    mail: new Counter({
      name: 'latchkey_mail_total',
      help: 'Mails handed to SMTP (or written to the output without it), by kind and result (sent, failed)',
      labelNames: ['kind', 'result'] as const,
      registers,
    }),
    queryDuration: new Histogram({
      name: 'latchkey_db_query_duration_seconds',
      help: 'Time a database statement took, from the call to its rows',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
      registers,
    }),
    poolConnections: new Gauge({
      name: 'latchkey_db_pool_connections',
      help: 'Database pool connections, by state (in_use, idle) — PostgreSQL only',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const stats = pool?.();
        if (!stats) return;
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'idle' }, stats.idle);
      },
    }),
    poolWaiting: new Gauge({
      name: 'latchkey_db_pool_waiting',
      help: 'Requests waiting for a database pool connection — PostgreSQL only',
      registers,
      collect() {
        const stats = pool?.();
        if (stats) this.set(stats.waiting);
      },
    }),
    /** The pool the gauges above read. */
    readPoolFrom(source: () => { total: number; idle: number; waiting: number }) {
      pool = source;
    },
    providerCacheSize: new Gauge({ name: 'latchkey_provider_cache_size', help: "Projects' issuers built and kept in this instance", registers }),
    providerCacheEvictions: new Counter({
      name: 'latchkey_provider_cache_evictions_total',
      help: 'Built issuers dropped from the cache: least recently used, or too old',
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: 'latchkey_rate_limit_refusals_total',
      help: 'Hits a rate limit refused, by limit',
      labelNames: ['limit'] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** What of an end user's event the metrics read (events/end-user-event.ts has the whole shape). */
export interface CountedEvent {
  action: string;
  status: string;
}

/** What an end user's event says to the metrics: sign-ins, registrations and token grants by result. */
export function countEvent(metrics: Metrics, event: CountedEvent, refused: boolean): void {
  const result = event.status;
  if (event.action === 'sign_in') metrics.signIns.inc({ result });
  else if (event.action === 'device.register') metrics.registrations.inc({ result });
  else if (event.action === 'code.exchanged') metrics.tokenGrants.inc({ grant_type: 'authorization_code', result });
  else if (event.action === 'token.refreshed') metrics.tokenGrants.inc({ grant_type: 'refresh_token', result });
  else if (event.action === 'token') metrics.tokenGrants.inc({ grant_type: 'client_authentication', result });
  if (refused) metrics.refusals.inc({ action: event.action, result });
}

/** `db`, timing each statement (inside transactions too); its pool's state is read when scraped. */
export function measuredDb(db: Db, metrics: Metrics): Db {
  if (db.poolStats) metrics.readPoolFrom(db.poolStats.bind(db));
  const measured = (inner: Db): Db => ({
    async query(sql, params) {
      const end = metrics.queryDuration.startTimer();
      try {
        return await inner.query(sql, params);
      } finally {
        end();
      }
    },
    transaction: (fn) => inner.transaction((tx) => fn(measured(tx))),
    exec: (sql) => inner.exec(sql),
    close: () => inner.close(),
  });
  return measured(db);
}

/** `mailer`, counting each mail sent and failed. */
export function measuredMailer(mailer: Mailer, metrics: Metrics): Mailer {
  const count =
    <A extends unknown[]>(kind: string, send: (...args: A) => Promise<void>) =>
    async (...args: A) => {
      try {
        await send(...args);
        metrics.mail.inc({ kind, result: 'sent' });
      } catch (error) {
        metrics.mail.inc({ kind, result: 'failed' });
        throw error;
      }
    };
  return {
    sendLoginCode: count('login_code', mailer.sendLoginCode.bind(mailer)),
    sendLoginLink: count('login_link', mailer.sendLoginLink.bind(mailer)),
    sendInvitation: count('invitation', mailer.sendInvitation.bind(mailer)),
    sendNotice: count('notice', mailer.sendNotice.bind(mailer)),
  };
}

/**
 * Times every request by its route template (a path no route matched is `unmatched`: the label set
 * stays bounded whatever is asked), and serves `GET /metrics` to whom presents METRICS_TOKEN as a
 * bearer token; without METRICS_TOKEN there is no such page (404).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const labels = { route, method: request.method, status: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (token === null) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    const presented = Buffer.from(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
    const expected = Buffer.from(token);
    if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) {
      return reply.status(401).header('WWW-Authenticate', 'Bearer realm="metrics"').type('text/plain; charset=utf-8').send('Unauthorized');
    }
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
