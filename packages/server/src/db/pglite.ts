import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Db } from './db.ts';

function transactionDb(tx: Transaction): Db {
  const db: Db = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await tx.query<T>(sql, [...params]);
      return { rows: result.rows };
    },
    transaction: (fn) => fn(db),
    async exec(sql) {
      await tx.exec(sql);
    },
    close: async () => {},
  };
  return db;
}

/**
 * Embedded PostgreSQL (PGlite). `dataDir` null keeps everything in memory (tests). PGlite creates
 * only the last folder of its path, so the parents are made first. One process per folder.
 * Contrib extensions exist only when loaded here: pg_trgm backs the application name filter
 * (migration 0002), and a database that has it must always be opened with it.
 */
export async function openPglite(dataDir: string | null, options: { from?: Blob } = {}): Promise<Db> {
  const extensions = { pg_trgm };
  // `from`: a data folder dumped by `dumpPglite` (a migrated template the tests copy instead of
  // running initdb and the migrations again for each suite).
  const load = options.from ? { loadDataDir: options.from } : {};
  let pg: PGlite;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    pg = await PGlite.create(dataDir, { extensions, ...load });
  } else {
    pg = await PGlite.create({ extensions, ...load });
  }
  const db: Db = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await pg.query<T>(sql, [...params]);
      return { rows: result.rows };
    },
    transaction: (fn) => pg.transaction((tx) => fn(transactionDb(tx))),
    async exec(sql) {
      await pg.exec(sql);
    },
    close: () => pg.close(),
  };
  engines.set(db, pg);
  return db;
}

const engines = new WeakMap<Db, PGlite>();

/** The whole data folder of a database `openPglite` opened, as an uncompressed tarball (for `from`). */
export async function dumpPglite(db: Db): Promise<Blob> {
  const pg = engines.get(db);
  if (!pg) throw new Error('not a PGlite database opened by openPglite');
  return pg.dumpDataDir('none');
}
