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

/** Is this a unique-constraint violation (SQLSTATE 23505)? Both drivers carry `code`. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}
