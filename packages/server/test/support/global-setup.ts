import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/db/migrate.ts';
import { dumpPglite, openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { TEST_POSTGRES_URL } from './scratch-postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PostgreSQL database each suite's database is copied from (CREATE DATABASE … TEMPLATE). */
    postgresTemplate: string;
    /** The data folder of a migrated PGlite database, as a tarball each suite's database is loaded from. */
    pgliteTemplate: string;
  }
}

/**
 * Migrates one database of each kind once for the whole run; every suite copies it instead of
 * running initdb and the migrations again (docs/decisions/0025). A PostgreSQL that cannot be
 * reached leaves the template name empty: each PostgreSQL suite then fails on its own, as before.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = mkdtempSync(join(tmpdir(), 'latchkey-template-'));
  const pgliteTemplate = join(folder, 'pglite.tar');
  const pglite = await openPglite(null);
  await migrate(pglite);
  writeFileSync(pgliteTemplate, new Uint8Array(await (await dumpPglite(pglite)).arrayBuffer()));
  await pglite.close();

  const postgresTemplate = `latchkey_template_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  let postgresReady = false;
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${postgresTemplate}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${postgresTemplate}`;
    const db = openPostgres(url.href);
    try {
      await migrate(db);
    } finally {
      await db.close();
    }
    postgresReady = true;
  } catch {
    // Reported by each PostgreSQL suite (an unreachable server is a failure, never a skip).
  } finally {
    await admin.end().catch(() => {});
  }
  project.provide('postgresTemplate', postgresReady ? postgresTemplate : '');
  project.provide('pgliteTemplate', pgliteTemplate);

  return async () => {
    rmSync(folder, { recursive: true, force: true });
    if (!postgresReady) return;
    const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${postgresTemplate} WITH (FORCE)`);
    await cleanup.end();
  };
}
