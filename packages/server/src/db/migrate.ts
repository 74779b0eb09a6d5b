import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { advisoryLockQuery } from './advisory-locks.ts';
import type { Db } from './db.ts';

export const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');

export interface Migration {
  version: string;
  sql: string;
}

/** The numbered forward-only scripts, in order: `0001_init.sql`, `0002_….sql`, … (nothing else in the folder). */
export function loadMigrations(dir: string = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f))
    .sort()
    .map((f) => ({ version: f.replace(/\.sql$/, ''), sql: readFileSync(join(dir, f), 'utf8') }));
}

/**
 * What schema_migrations records of a script and the committed manifest pins (docs/decisions/0041):
 * the sha256 of its text, in hex — what `sha256sum` prints for the file.
 */
export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

export interface ChangedMigration {
  version: string;
  /** The checksum the database recorded when it applied the migration. */
  applied: string;
  /** The checksum of the file this code carries. */
  file: string;
}

/**
 * A migration this database applied is not the file this code carries: its schema may lack what
 * the file now says (as 0030 did: docs/decisions/0041), so the server refuses to start rather than
 * run on it. The message is what the operator reads (main.ts prints it as the reason).
 */
export class MigrationChangedError extends Error {
  readonly changed: readonly ChangedMigration[];
  constructor(changed: readonly ChangedMigration[]) {
    const many = changed.length > 1;
    const each = changed.map(
      (c) => `${many ? `${c.version}: ` : ''}the database recorded sha256 ${c.applied}, the file ${c.version}.sql has sha256 ${c.file}`,
    );
    super(
      `${many ? 'Migrations' : 'Migration'} ${changed.map((c) => c.version).join(', ')} changed after this database applied ${many ? 'them' : 'it'} ` +
        `(${each.join('; ')}). No migration was applied. Restore ${many ? 'each' : 'the'} file as it landed ` +
        `(git log --follow -p -- packages/server/src/db/migrations/${many ? '<version>' : (changed[0]?.version ?? '')}.sql) and put the change in a new migration ` +
        '(docs/decisions/0041).',
    );
    this.name = 'MigrationChangedError';
    this.changed = changed;
  }
}

/**
 * Applies the migrations not yet recorded in schema_migrations, each in its own transaction, after
 * checking that every one already applied is the file this code carries (else MigrationChangedError,
 * and nothing is applied). Every transaction first takes the advisory lock and re-checks, so two
 * instances starting together apply each script exactly once. Answers the versions applied now.
 */
export async function migrate(db: Db, migrations: Migration[] = loadMigrations()): Promise<string[]> {
  const checksums = new Map(migrations.map((m) => [m.version, checksumOf(m.sql)]));
  const changedOf = (rows: ReadonlyArray<{ version: string; checksum: string }>): ChangedMigration[] =>
    rows.flatMap(({ version, checksum }) => {
      const file = checksums.get(version);
      // A version this code does not know (a newer instance's, during a rollover) is not ours to judge.
      return file !== undefined && file !== checksum ? [{ version, applied: checksum, file }] : [];
    });

  const changed = await db.transaction(async (tx) => {
    await tx.query(...advisoryLockQuery('migrations'));
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());
      ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`);
    // Rows from before checksums were recorded (and any a previous version's instance writes during
    // a rollover) take the file as found now: what was applied then is unknowable, and an edit made
    // before this start cannot be caught here (the manifest test guards the files; 0030's late
    // indexes are repaired by 0032 whichever text a database ran). docs/decisions/0041.
    await tx.query(
      `UPDATE schema_migrations s SET checksum = f.checksum
         FROM unnest($1::text[], $2::text[]) AS f(version, checksum)
        WHERE s.version = f.version AND s.checksum IS NULL`,
      [[...checksums.keys()], [...checksums.values()]],
    );
    const { rows } = await tx.query<{ version: string; checksum: string }>(
      'SELECT version, checksum FROM schema_migrations WHERE checksum IS NOT NULL ORDER BY version',
    );
    return changedOf(rows);
  });
  if (changed.length > 0) throw new MigrationChangedError(changed);

  const applied: string[] = [];
  for (const migration of migrations) {
    const checksum = checksumOf(migration.sql);
    const done = await db.transaction(async (tx) => {
      await tx.query(...advisoryLockQuery('migrations'));
      const { rows } = await tx.query<{ version: string; checksum: string | null }>(
        'SELECT version, checksum FROM schema_migrations WHERE version = $1',
        [migration.version],
      );
      const [row] = rows;
      if (row) {
        // Applied meanwhile by an instance starting beside this one: the same file, or it says so.
        const late = changedOf([{ version: row.version, checksum: row.checksum ?? checksum }]);
        if (late.length > 0) throw new MigrationChangedError(late);
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2)', [migration.version, checksum]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}
