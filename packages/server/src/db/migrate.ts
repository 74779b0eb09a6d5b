import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { advisoryLockQuery } from './advisory-locks.ts';
import type { Db } from './db.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export interface Migration {
  version: string;
  sql: string;
}

/** The numbered forward-only scripts, in order: `0001_init.sql`, `0002_….sql`, … */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction. Every
 * transaction first takes the advisory lock and re-checks, so two instances starting together
 * apply each script exactly once. Answers the versions applied now.
 */
export async function migrate(db: Db, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  await db.transaction(async (tx) => {
    await tx.query(...advisoryLockQuery('migrations'));
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  });
  const applied: string[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await tx.query(...advisoryLockQuery('migrations'));
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (rows.length > 0) return false;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
