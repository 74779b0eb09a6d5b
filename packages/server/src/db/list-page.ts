import type { Db } from './db.ts';

/** One condition of a list's filter; `$?` stands for its value's parameter, each time it appears (none when `value` is absent). */
export interface Condition {
  sql: string;
  value?: unknown;
  /**
   * The condition is `column = ANY(values)` over a few values (`values` an array expression with
   * the same `$?`): a page sorted by an index that leads with `column` may be read one value at a
   * time (ListPageSpec.eachOf).
   */
  oneOf?: { column: string; values: string };
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
export function bind(conditions: readonly Condition[], params: unknown[]): string {
  const parts = conditions.map((c) => {
    if (!('value' in c)) return c.sql;
    params.push(c.value);
    return c.sql.replaceAll('$?', `$${params.length}`);
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
  /**
   * Count at most this many rows (and one more, to know there are more): the total of a filter
   * over millions of rows costs at most `totalCap + 1` index entries (docs/decisions/0019).
   */
  totalCap?: number;
  /**
   * Conditions of the page alone, not of the total: a keyset seek (`(created_at, id) < (…)`) that
   * starts the page after a row already shown, `offset` then counting from there.
   */
  seek?: readonly Condition[];
  /**
   * The columns of a row the order needs (its key and sort columns). When set, the page is chosen
   * from all the filter's matches, read first (MATERIALIZED, by the filter's best index) and then
   * sorted: for a filter known to match few rows, whose rows the sort's index would have to be
   * walked far to find (docs/decisions/0019).
   */
  matchColumns?: string;
  /** The FROM of the page's keys when not `table` (a join the sort's order is read from); the count and the rows still read `table`. */
  keysFrom?: string;
  /**
   * Conditions every listed row meets, restated on `table` where the page's rows are read back by
   * their keys: on a partitioned table (audit_events' months) the planner then considers only the
   * partitions of the range, not every partition for each key (planning was 1.4 of the 1.6 ms of
   * a month's first page at 10 M events). Columns named with the table (`audit_events.created_at`).
   */
  rowsWhere?: readonly Condition[];
  /**
   * The page's keys read one value of `column` at a time: for each distinct value, an ordered walk
   * of an index that leads with the column (then the order's columns) stops after offset + limit
   * entries, and the walks are merged. For a filter that is one of a few values (a person's events
   * under their id, their pseudonym, …) whose matches are many: one `= ANY` is not in the order's
   * order in that index, so every match would be sorted (docs/decisions/0019). `where` then does
   * not hold the values' own condition; the order's columns must be among `key`.
   */
  eachOf?: { column: string; values: Condition };
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
  const filter = bind([...spec.where, ...(spec.seek ?? [])], pageParams);
  const countParams: unknown[] = [];
  const countSql = spec.totalFrom
    ? `${spec.totalFrom.sql} WHERE ${bind(spec.totalFrom.where, countParams)}`
    : spec.totalCap !== undefined
      ? `SELECT count(*)::int AS total FROM (SELECT 1 FROM ${spec.table} WHERE ${bind(spec.where, countParams)} LIMIT ${Math.trunc(spec.totalCap) + 1}) AS counted`
      : `SELECT count(*)::int AS total FROM ${spec.table} WHERE ${bind(spec.where, countParams)}`;
  const rows = spec.rowsWhere && spec.rowsWhere.length > 0 ? ` WHERE ${bind(spec.rowsWhere, pageParams)}` : '';
  const values = spec.eachOf ? bind([spec.eachOf.values], pageParams) : '';
  const limit = pageParams.length + 1;
  const keys = spec.eachOf
    ? `SELECT ${spec.columns} FROM (SELECT ${spec.key} FROM (SELECT DISTINCT unnest(${values}) AS value) AS each_of ` +
      `CROSS JOIN LATERAL (SELECT ${spec.key} FROM ${spec.table} WHERE ${filter} AND ${spec.eachOf.column} = each_of.value ` +
      `ORDER BY ${spec.orderBy} LIMIT $${limit}::int + $${limit + 1}::int) AS one ORDER BY ${spec.orderBy} `
    : spec.matchColumns
      ? `WITH matches AS MATERIALIZED (SELECT ${spec.matchColumns} FROM ${spec.table} WHERE ${filter}) ` +
        `SELECT ${spec.columns} FROM (SELECT ${spec.key} FROM matches ORDER BY ${spec.orderBy} `
      : `SELECT ${spec.columns} FROM (SELECT ${spec.key} FROM ${spec.keysFrom ?? spec.table} WHERE ${filter} ORDER BY ${spec.orderBy} `;
  const pageSql = `${keys}LIMIT $${limit} OFFSET $${limit + 1}) AS page JOIN ${spec.table} USING (${spec.key})${rows} ORDER BY ${spec.orderBy}`;
  return { countSql, countParams, pageSql, pageParams: [...pageParams, spec.limit, spec.offset] };
}

/**
 * One page of a list and the number of rows matching its filter; with `totalCap`, a total above
 * the cap is answered as the cap with `capped: true`.
 */
export async function listPage<T>(db: Db, spec: ListPageSpec): Promise<{ total: number; capped: boolean; list: T[] }> {
  const { countSql, countParams, pageSql, pageParams } = listPageSql(spec);
  // Two statements, not count(*) OVER (): the window would read every matching row to page ten.
  const [count, page] = await Promise.all([db.query<{ total: number }>(countSql, countParams), db.query<T>(pageSql, pageParams)]);
  const total = Number(count.rows[0]?.total ?? 0);
  const capped = spec.totalCap !== undefined && total > spec.totalCap;
  return { total: capped ? (spec.totalCap as number) : total, capped, list: page.rows };
}

/** `asc` / `desc` of a list query as SQL. */
export function sqlDirection(direction: 'asc' | 'desc'): 'ASC' | 'DESC' {
  return direction === 'desc' ? 'DESC' : 'ASC';
}
