import { createHash } from 'node:crypto';

/**
 * The one database interface the repositories use: PostgreSQL dialect, parametrized SQL
 * (docs/decisions/0001). Implemented by PGlite (embedded) and by a `pg` pool (DATABASE_URL).
 */
export interface Db {
  query<T>(sql: string, params?: readonly unknown[]): Promise<{ rows: T[] }>;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. Inside,
   * use only `tx` — on PGlite the outer handle waits for the transaction to end (one connection),
   * so touching it from inside would never return. A transaction inside a transaction joins it.
   */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** A pool's connections (all, idle) and the callers waiting for one; absent where there is no pool (PGlite). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

/**
 * Statement texts to prepare (issue 38, docs/decisions/0055): on PostgreSQL, a text marked here is
 * sent as a named statement, parsed and planned once per connection and then only bound and run;
 * any other is parsed and planned at each call (an unnamed statement). Mark a text the code writes
 * (never one built from input: at most PREPARED_MAX are kept, the rest run unnamed), whose best plan
 * does not depend on its parameters' values (reads and writes by key: the sign-in and token path),
 * and which names its columns (a `*` over a table would fail once a migration changes that table's
 * columns under a running instance). A list whose plan depends on its range stays unmarked.
 */
const PREPARED_MAX = 500;
const preparedNames = new Map<string, string>();

/** Marks `sql` to be prepared (see above); answers it unchanged. */
export function prepared(sql: string): string {
  // Named by the text's hash: one name is one text in every instance and version (a pooler that
  // wrongly carried a statement to another connection answers "does not exist", never runs another).
  if (!preparedNames.has(sql) && preparedNames.size < PREPARED_MAX)
    preparedNames.set(sql, `lk_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`);
  return sql;
}

/** The statement name of a text marked by `prepared`, or undefined. */
export function preparedName(sql: string): string | undefined {
  return preparedNames.get(sql);
}

/** Is this a unique-constraint violation (SQLSTATE 23505)? Both drivers carry `code`. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/**
 * A read's answer, or 'timeout' when the database has not answered within `ms`: for what must answer
 * while the database is unreachable (the probes, the custom-domain lookup). A connection error comes
 * back at once, but a pooler in front of a database that refuses connections (PgBouncer) holds the
 * query until it can connect or its own query_wait_timeout (120 s by default) ends. The read left
 * behind goes on; its failure is ignored.
 */
export async function answeredWithin<T>(read: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const answer = await Promise.race([read, expired]);
    if (answer === 'timeout') read.catch(() => undefined);
    return answer;
  } finally {
    clearTimeout(timer);
  }
}
