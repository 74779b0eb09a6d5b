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

export interface PgliteOptions {
  /**
   * A data folder dumped by `dumpPglite` to start from (a migrated template the tests copy instead
   * of running initdb and the migrations again for each suite): as a Blob, or its bytes, which
   * PGlite reads without copying them (it copies each file out of them).
   */
  from?: Blob | ArrayBuffer;
  /** Server settings for this start (`-c name=value`), over the data folder's postgresql.conf. */
  settings?: Readonly<Record<string, string>>;
}

/** PGlite's own start parameters, which `settings` add to (its `startParams` replace them). */
const PGLITE_START: readonly string[] = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;

/**
 * Bytes already in memory as the Blob PGlite reads a dump from (`arrayBuffer()`): a Blob made of a
 * 42 MB buffer is read back through small chunks and a copy at each open (a third of a test
 * database's 1.1 s open on a slow machine).
 */
class BytesBlob extends Blob {
  readonly #data: ArrayBuffer;
  constructor(data: ArrayBuffer) {
    super([]);
    this.#data = data;
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(this.#data);
  }
}

/**
 * Embedded PostgreSQL (PGlite). `dataDir` null keeps everything in memory (tests). PGlite creates
 * only the last folder of its path, so the parents are made first. One process per folder.
 * Contrib extensions exist only when loaded here: pg_trgm backs the application name filter
 * (migration 0002), and a database that has it must always be opened with it.
 */
export async function openPglite(dataDir: string | null, options: PgliteOptions = {}): Promise<Db> {
  const extensions = { pg_trgm };
  const load = options.from ? { loadDataDir: options.from instanceof ArrayBuffer ? new BytesBlob(options.from) : options.from } : {};
  const settings = Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]);
  const start = settings.length > 0 ? { startParams: [...PGLITE_START, ...settings] } : {};
  let pg: PGlite;
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    pg = await PGlite.create(dataDir, { extensions, ...load, ...start });
  } else {
    pg = await PGlite.create({ extensions, ...load, ...start });
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
