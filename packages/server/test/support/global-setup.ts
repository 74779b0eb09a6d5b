import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createSecretBox } from '../../src/crypto.ts';
import type { Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { loadConsoleIssuerKeys } from '../../src/idp/console-issuer.ts';
import { dumpPglite, openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { TEST_POSTGRES_URL } from './scratch-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database each suite's database is copied from (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string;
    /** The data folder of a migrated PGlite database, as a tarball each suite's database is loaded from. */
    pgliteTemplate: string;
    /** The master key (SECRET_KEY) of every test app in the run: the templates' server keys are sealed under it. */
    testSecretKey: string;
  }
}

/**
 * Migrates one database of each kind once for the whole run; every suite copies it instead of
 * running initdb and the migrations again (docs/decisions/0025). A PostgreSQL that cannot be
 * reached leaves the template name empty: each PostgreSQL suite then fails on its own, as before.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A template holds what a deployment's first start writes (the built-in provider's signing key,
  // cookie keys and client secret, sealed under the run's master key): each suite's app starts as
  // an instance restarting on its database, instead of generating an RSA key of its own (0.1 s).
  const testSecretKey = randomBytes(32).toString('base64');
  const firstStart = async (db: Db) => {
    await migrate(db);
    await loadConsoleIssuerKeys(db, createSecretBox(Buffer.from(testSecretKey, 'base64')));
  };
  const folder = mkdtempSync(join(tmpdir(), 'latchkey-template-'));
  const pgliteTemplate = join(folder, 'pglite.tar');
  // The two templates are made at once: PGlite works in this process, PostgreSQL in its server.
  const makePglite = async () => {
    const pglite = await openPglite(null);
    await firstStart(pglite);
    // A checkpoint first: each copy then starts with no write-ahead log to replay.
    await pglite.exec('CHECKPOINT');
    writeFileSync(pgliteTemplate, new Uint8Array(await (await dumpPglite(pglite)).arrayBuffer()));
    await pglite.close();
  };
  const postgresTemplate = `latchkey_template_${randomBytes(6).toString('hex')}`;
  const makePostgres = async (): Promise<boolean> => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    try {
      await admin.connect();
      await admin.query(`CREATE DATABASE ${postgresTemplate}`);
      const url = new URL(TEST_POSTGRES_URL);
      url.pathname = `/${postgresTemplate}`;
      const db = openPostgres(url.href);
      try {
        await firstStart(db);
      } finally {
        await db.close();
      }
      return true;
    } catch {
      // Reported by each PostgreSQL suite (an unreachable server is a failure, never a skip).
      return false;
    } finally {
      await admin.end().catch(() => {});
    }
  };
  const dropPostgresTemplate = async (made: boolean) => {
    if (!made) return;
    const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
    await cleanup.end();
  };
  const [pgliteMade, postgresMade] = await Promise.allSettled([makePglite(), makePostgres()]);
  const postgresReady = postgresMade.status === 'fulfilled' && postgresMade.value;
  if (pgliteMade.status === 'rejected') {
    await dropPostgresTemplate(postgresReady);
    throw pgliteMade.reason;
  }
  project.provide('postgresTemplate', postgresReady ? postgresTemplate : '');
  project.provide('pgliteTemplate', pgliteTemplate);
  project.provide('testSecretKey', testSecretKey);

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    await dropPostgresTemplate(postgresReady);
  };
}
