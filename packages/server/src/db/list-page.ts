import type { Db } from './db.ts';

/** One condition of a list's filter; `$?` stands for its value's parameter (none when `value` is absent). */
export interface Condition {
  sql: string;
  value?: unknown;
}

/** A condition with a value: `eq('enabled', true)` → `enabled = $n`. */
export const eq = (column: string, value: unknown): Condition => ({ sql: `${column} = $?`, value });

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** "Contains, case-insensitive" on a lower-cased key column: `lower_column LIKE lower('%term%')`. */
export const containsLower = (lowerColumn: string, term: string): Condition => ({
  sql: `${lowerColumn} LIKE lower($?)`,
  value: `%${escapeLike(term)}%`,
});

/** Numbers the `$?` of each condition in order, after `params` already taken; answers the WHERE text. */
function bind(conditions: readonly Condition[], params: unknown[]): string {
  const parts = conditions.map((c) => {
    if (!('value' in c)) return c.sql;
    params.push(c.value);
    return c.sql.replace('$?', `$${params.length}`);
  });
  return parts.length > 0 ? parts.join(' AND ') : 'true';
}

export interface ListPageSpec {
  /** The table listed; its `key` column identifies a row. */
  table: string;
  key: string;
  /** The page's SELECT list, aliased to the domain's field names. */
  columns: string;
  where: readonly Condition[];
  /** ORDER BY text from the list's sort whitelist; it must be total (end with the key). */
  orderBy: string;
  limit: number;
  offset: number;
  /**
   * Where the total comes from when not from `count(*)` of the filter: a kept counter table and
   * the conditions it answers (e.g. application_counts without the name filter).
   */
  totalFrom?: { sql: string; where: readonly Condition[] } | null;
}

export interface ListPageSql {
  countSql: string;
  countParams: unknown[];
  pageSql: string;
  pageParams: unknown[];
}

/**
 * The two statements of every list call (spec §7 "sort, direction, offset, limit"; spec §3 "total
 * and a list"), exactly as run — benches EXPLAIN them. The page's keys come first, from the index
 * alone (an index-only scan skips `offset` entries without reading their rows), then the rows of
 * those keys: a deep page costs index entries, not rows (docs/decisions/0010).
 */
export function listPageSql(spec: ListPageSpec): ListPageSql {
  const pageParams: unknown[] = [];
  const filter = bind(spec.where, pageParams);
  const countParams: unknown[] = [];
  const countSql = spec.totalFrom
    ? `${spec.totalFrom.sql} WHERE ${bind(spec.totalFrom.where, countParams)}`
    : `SELECT count(*)::int AS total FROM ${spec.table} WHERE ${bind(spec.where, countParams)}`;
  const limit = pageParams.length + 1;
  const pageSql =
    `SELECT ${spec.columns} FROM (SELECT ${spec.key} FROM ${spec.table} WHERE ${filter} ORDER BY ${spec.orderBy} ` +
    `LIMIT $${limit} OFFSET $${limit + 1}) AS page JOIN ${spec.table} USING (${spec.key}) ORDER BY ${spec.orderBy}`;
  return { countSql, countParams, pageSql, pageParams: [...pageParams, spec.limit, spec.offset] };
}

/** One page of a list and the number of rows matching its filter. */
export async function listPage<T>(db: Db, spec: ListPageSpec): Promise<{ total: number; list: T[] }> {
  const { countSql, countParams, pageSql, pageParams } = listPageSql(spec);
  // Two statements, not count(*) OVER (): the window would read every matching row to page ten.
  const [count, page] = await Promise.all([db.query<{ total: number }>(countSql, countParams), db.query<T>(pageSql, pageParams)]);
  return { total: Number(count.rows[0]?.total ?? 0), list: page.rows };
}

/** `asc` / `desc` of a list query as SQL. */
export function sqlDirection(direction: 'asc' | 'desc'): 'ASC' | 'DESC' {
  return direction === 'desc' ? 'DESC' : 'ASC';
}
