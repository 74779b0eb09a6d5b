import type { FastifyInstance, FastifyReply } from 'fastify';
import type { SecretBox } from '../crypto.ts';
import { answeredWithin, type Db } from '../db/db.ts';
import { loadMigrations } from '../db/migrate.ts';

/**
 * Health probes for load balancers and orchestrators (issue 23, docs/decisions/0031). Both answer on
 * any Host (a probe names the instance's own address) without the custom-domain lookup, without a
 * session and without a rate limit, in a few bytes of JSON that say nothing of the deployment.
 *
 * - `GET /healthz`: the process serves (200 while it does, shutting down included).
 * - `GET /readyz`: this instance can take traffic: the database answers within PROBE_TIMEOUT_MS,
 *   every migration this code knows is applied, the master key opens a stored key — and it is not
 *   shutting down. 503 with the failed checks otherwise.
 */
export const PROBE_PATHS = new Set(['/healthz', '/readyz']);
export const PROBE_TIMEOUT_MS = 2000;

/** The stored key a readiness check opens (made at the first start: oidc/keys.ts issuerCookieKeys). */
const PROBED_KEY = 'provider.cookie_keys';

type Check = 'ok' | 'failed' | 'timeout' | 'pending' | 'unopenable' | 'stopping';

export interface Probes {
  /** Readiness turns false from now on (SIGTERM): load balancers stop sending new requests. */
  shuttingDown(): void;
}

export function registerProbes(app: FastifyInstance, deps: { db: Db; secretBox: SecretBox; timeoutMs?: number }): Probes {
  const { db, secretBox } = deps;
  const timeoutMs = deps.timeoutMs ?? PROBE_TIMEOUT_MS;
  const latestMigration = loadMigrations().at(-1)?.version ?? '';
  let stopping = false;

  const answer = (reply: FastifyReply, status: number, body: object) =>
    reply.status(status).header('Cache-Control', 'no-store').type('application/json; charset=utf-8').send(JSON.stringify(body));

  /** One statement: the database answers, its newest migration, the sealed probe key. */
  async function checks(): Promise<{ database: Check; migrations: Check; keys: Check }> {
    try {
      const row = await answeredWithin(
        db
          .query<{ migration: string | null; sealed: string | null }>(
            `SELECT (SELECT max(version) FROM schema_migrations) AS migration,
                    (SELECT sealed FROM server_keys WHERE name = $1) AS sealed`,
            [PROBED_KEY],
          )
          .then((result) => result.rows[0]),
        timeoutMs,
      );
      if (row === 'timeout') return { database: 'timeout', migrations: 'failed', keys: 'failed' };
      const migrations: Check = (row?.migration ?? '') >= latestMigration ? 'ok' : 'pending';
      let keys: Check = 'ok';
      if (row?.sealed) {
        try {
          secretBox.openJson(row.sealed, `server_keys:${PROBED_KEY}`);
        } catch {
          keys = 'unopenable';
        }
      }
      return { database: 'ok', migrations, keys };
    } catch {
      return { database: 'failed', migrations: 'failed', keys: 'failed' };
    }
  }

  app.get('/healthz', async (_request, reply) => answer(reply, 200, { status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    if (stopping) return answer(reply, 503, { status: 'not ready', checks: { shutdown: 'stopping' } });
    const result = await checks();
    const ready = Object.values(result).every((check) => check === 'ok');
    return answer(reply, ready ? 200 : 503, ready ? { status: 'ready' } : { status: 'not ready', checks: result });
  });

  return {
    shuttingDown() {
      stopping = true;
    },
  };
}
