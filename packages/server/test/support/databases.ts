import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import type { Db } from '../../src/db/db.ts';
import { loadMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createScratchPostgres, TEST_POSTGRES_URL } from './scratch-postgres.ts';

export { TEST_POSTGRES_URL };

export type Driver = 'pglite' | 'postgres';
export const DRIVERS: readonly Driver[] = ['pglite', 'postgres'];

/**
 * The drivers a suite that does not depend on its driver runs on (docs/decisions/0025): PostgreSQL,
 * or both with LATCHKEY_TEST_DRIVERS=all (`npm run test:matrix`).
 */
const ONE_DRIVER: readonly Driver[] = process.env.LATCHKEY_TEST_DRIVERS === 'all' ? DRIVERS : ['postgres'];

export interface TestDatabase {
  driver: Driver;
  /** The migrated database of this describe block (valid inside tests and hooks). */
  readonly db: Db;
}

/** The migrated template global setup made, read once per worker. */
let pgliteTemplate: ArrayBuffer | null = null;
function pgliteTemplateData(): ArrayBuffer | null {
  const file = inject('pgliteTemplate');
  if (!file) return null;
  if (!pgliteTemplate) {
    const bytes = readFileSync(file);
    pgliteTemplate = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  return pgliteTemplate;
}

/**
 * A test database's PGlite settings (docs/decisions/0025, fifth round): 16 MB of shared buffers,
 * not initdb's 128 MB, which PostgreSQL zeroes at every start (half a test database's open).
 */
export const PGLITE_TEST_SETTINGS = { shared_buffers: '16MB' } as const;

/**
 * A fresh, migrated database: a copy of the run's migrated template (support/global-setup.ts), or,
 * outside a run that made one, a new database migrated here. On PostgreSQL a new database
 * `latchkey_test_<random>`, dropped by `drop()`.
 */
export async function createTestDatabase(driver: Driver): Promise<{ db: Db; drop(): Promise<void> }> {
  if (driver === 'pglite') {
    const db = await openTestPglite();
    return { db, drop: () => db.close() };
  }
  return createTestPostgres();
}

/**
 * A migrated PGlite database, in memory or in `dataDir`: a copy of the run's template, or migrated
 * here outside a run that made one; with the tests' settings.
 */
export async function openTestPglite(dataDir: string | null = null): Promise<Db> {
  const template = pgliteTemplateData();
  const db = await openPglite(dataDir, { ...(template ? { from: template } : {}), settings: PGLITE_TEST_SETTINGS });
  if (!template) await migrate(db);
  return db;
}

/**
 * A database as the version before migration `version` left it: emptied, then migrated up to (not
 * including) `version`; a migration's test writes its earlier rows there and migrates the rest.
 */
export async function createDatabaseBefore(driver: Driver, version: string): Promise<{ db: Db; drop(): Promise<void> }> {
  const fresh = await createTestDatabase(driver);
  await fresh.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
  await migrate(
    fresh.db,
    loadMigrations().filter((m) => m.version < version),
  );
  return fresh;
}

/** A PostgreSQL database of its own, a copy of the run's migrated template, with its URL (for a spawned server). */
export async function createTestPostgres(): Promise<{ url: string; db: Db; drop(): Promise<void> }> {
  const template = inject('postgresTemplate');
  const scratch = await createScratchPostgres(TEST_POSTGRES_URL, 'latchkey_test', template ? { template } : {});
  if (!template) await migrate(scratch.db);
  return scratch;
}

function describeOn(drivers: readonly Driver[], name: string, suite: (t: TestDatabase) => void): void {
  for (const driver of drivers) {
    describe(`${name} [${driver}]`, () => {
      let current: { db: Db; drop(): Promise<void> } | null = null;
      let setupError: unknown = null;
      const t: TestDatabase = {
        driver,
        get db() {
          if (setupError) throw setupError;
          if (!current) throw new Error('the test database is not ready (use it inside tests or hooks)');
          return current.db;
        },
      };
      beforeAll(async () => {
        try {
          current = await createTestDatabase(driver);
        } catch (error) {
          // Kept for the test below: an unreachable PostgreSQL is a failure, not a skip.
          setupError = error;
        }
      });
      afterAll(async () => {
        await current?.drop();
        current = null;
      });
      it(`has a fresh ${driver} database`, () => {
        if (setupError) throw setupError;
      });
      suite(t);
    });
  }
}

/**
 * The same suite, once on embedded PGlite and once on the PostgreSQL server (CONVENTIONS "Tests"),
 * for the suites whose SQL or driver behaviour can differ between the two (docs/decisions/0025).
 * Each run gets its own fresh database for the whole describe block; tests make their own data.
 */
export function describeEachDatabase(name: string, suite: (t: TestDatabase) => void): void {
  // LATCHKEY_TEST_DRIVERS=postgres: PostgreSQL alone (the suite through PgBouncer, scripts/test-pgbouncer.mjs).
  describeOn(process.env.LATCHKEY_TEST_DRIVERS === 'postgres' ? ['postgres'] : DRIVERS, name, suite);
}

/**
 * A suite whose outcome does not depend on the driver (HTTP, permissions, the provider's pages and
 * rules over SQL the suites of describeEachDatabase already run on both): on PostgreSQL, and on
 * both with LATCHKEY_TEST_DRIVERS=all (docs/decisions/0025).
 */
export function describeWithDatabase(name: string, suite: (t: TestDatabase) => void): void {
  describeOn(ONE_DRIVER, name, suite);
}
