import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Db } from '../../src/db/db.ts';
import { openPostgres } from '../../src/db/postgres.ts';

/** The PostgreSQL server the suite runs against (README: trust auth, creates and drops its own database). */
export const TEST_POSTGRES_URL = process.env.LATCHKEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A connection pooler in front of that server (`npm run test:pgbouncer`: PgBouncer in transaction
 * pooling mode): the apps and spawned servers of the suite reach their databases through it, while
 * databases are made and dropped on the server directly.
 */
const POOLER_URL = process.env.LATCHKEY_TEST_POOLER_URL;

/**
 * A new database `{prefix}_<random>` on the PostgreSQL server at `serverUrl` (the test suite's and
 * the bench's): empty, or a copy of the database `template`. `drop()` closes the pool and drops it.
 */
export async function createScratchPostgres(
  serverUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<{ name: string; url: string; db: Db; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  // Unreachable PostgreSQL must fail the PostgreSQL half, never skip it.
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  await admin.end();
  const url = new URL(POOLER_URL && serverUrl === TEST_POSTGRES_URL ? POOLER_URL : serverUrl);
  url.pathname = `/${name}`;
  // PgBouncer 1.18 (Debian's) in transaction pooling cannot carry named statements between its connections.
  const db = openPostgres(url.href, { preparedStatements: !(POOLER_URL && serverUrl === TEST_POSTGRES_URL) });
  return {
    name,
    url: url.href,
    db,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
