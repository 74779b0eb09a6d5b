import { afterAll, beforeAll, describe, it } from 'vitest';
import type { Db } from '../../src/db/db.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { createScratchPostgres } from './scratch-postgres.ts';

export type Driver = 'pglite' | 'postgres';
export const DRIVERS: readonly Driver[] = ['pglite', 'postgres'];

/** The PostgreSQL server the suite runs against (README: trust auth, creates and drops its own database). */
export const TEST_POSTGRES_URL = process.env.LATCHKEY_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  driver: Driver;
  /** The migrated database of this describe block (valid inside tests and hooks). */
  readonly db: Db;
}

/** A fresh, migrated database. On PostgreSQL a new database `latchkey_test_<random>`, dropped by `drop()`. */
export async function createTestDatabase(driver: Driver): Promise<{ db: Db; drop(): Promise<void> }> {
  if (driver === 'pglite') {
    const db = await openPglite(null);
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const scratch = await createScratchPostgres(TEST_POSTGRES_URL, 'latchkey_test');
  await migrate(scratch.db);
  return scratch;
}

/**
 * The same suite, once on embedded PGlite and once on the PostgreSQL server (CONVENTIONS "Tests").
 * Each run gets its own fresh database for the whole describe block; tests make their own data.
 */
export function describeEachDatabase(name: string, suite: (t: TestDatabase) => void): void {
  for (const driver of DRIVERS) {
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
