import { createHash } from 'node:crypto';
import { isCleanText, TOTAL_CAP, type DateRange } from '@latchkey/domain';
import type { Db } from './db.ts';
import { eq, listPageSql, sqlDirection, type Condition, type ListPageSpec } from './list-page.ts';

/**
 * Keyset paging behind the spec's offset API (docs/decisions/0019). A page answers `nextCursor`:
 * the sort key of its last row, the offset of the next page and a fingerprint of the query. Sent
 * back as `cursor` with that offset, the next page starts with an index seek after that row instead
 * of skipping `offset` entries. The offset stays the truth: a cursor made for another query or
 * offset, or one that does not read back, is ignored and the page is found by offset as ever.
 */

/**
 * A project's rows created in `range` (from inclusive, to exclusive): every list, export and bulk
 * action of the devices and the audit log starts here, so each is an index range read (and, for
 * events, prunes the monthly partitions).
 */
export function projectInRange(projectId: string, range: DateRange): Condition[] {
  return [eq('project_id', projectId), ...createdInRange(range)];
}

/** `column` (a creation time) in `range`, from inclusive, to exclusive. */
function createdInRange(range: DateRange, column = 'created_at'): Condition[] {
  return [
    { sql: `${column} >= $?`, value: range.from },
    { sql: `${column} < $?`, value: range.to },
  ];
}

/** One column of a sort key as the seek compares it; its value travels as text and is cast back. */
export interface SeekColumn {
  /** The column as the ORDER BY and the index name it (e.g. `created_at`, `name_key`). */
  column: string;
  /** An expression giving the row's value as text, exactly (timestamps to the microsecond). */
  text: string;
  cast: 'text' | 'timestamptz' | 'uuid' | 'boolean';
}

/** created_at to the microsecond, in UTC, as text that casts back to the same instant. */
export const CREATED_AT_TEXT = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const VALUE_RULES: Record<SeekColumn['cast'], (v: string) => boolean> = {
  text: (v) => v.length <= 2000 && isCleanText(v),
  timestamptz: (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(v) && !Number.isNaN(Date.parse(v)),
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(v),
  boolean: (v) => v === 'true' || v === 'false',
};

interface CursorBody {
  /** The offset of the page the cursor leads to. */
  o: number;
  /** Fingerprint of the project, filters, range, sort and direction. */
  f: string;
  /** The last row's sort key, as text. */
  k: string[];
}

/** A short digest of everything that decides a list's rows and order (not its offset or limit). */
export function queryFingerprint(query: unknown): string {
  return createHash('sha256').update(JSON.stringify(query)).digest('base64url').slice(0, 22);
}

export function makeCursor(nextOffset: number, fingerprint: string, key: string[]): string {
  const body: CursorBody = { o: nextOffset, f: fingerprint, k: key };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The sort key the cursor carries, if it was made for this query at this offset and reads back; else null. */
export function readCursor(cursor: string | undefined, offset: number, fingerprint: string, columns: readonly SeekColumn[]): string[] | null {
  if (!cursor) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof body !== 'object' || body === null) return null;
  const { o, f, k } = body as Partial<CursorBody>;
  if (o !== offset || f !== fingerprint || !Array.isArray(k) || k.length !== columns.length) return null;
  const key = k as unknown[];
  if (!columns.every((c, i) => typeof key[i] === 'string' && VALUE_RULES[c.cast](key[i]))) return null;
  return key as string[];
}

/**
 * The rows after `key` in the sort's order: one row comparison over the sort's columns (all in the
 * same direction), which the index of that sort answers as a range start. `$?` is one text[]
 * parameter, each element cast back to its column's type.
 */
export function seekAfter(columns: readonly SeekColumn[], direction: 'ASC' | 'DESC', key: string[], leading = false): Condition {
  const left = columns.map((c) => c.column).join(', ');
  const right = columns.map((c, i) => `(($?::text[])[${i + 1}])::${c.cast}`).join(', ');
  const after = `(${left}) ${direction === 'DESC' ? '<' : '>'} (${right})`;
  const first = columns[0] as SeekColumn;
  // Implied by the row comparison; stated for a first column of another table (RangedSort.keysFrom).
  const lead = leading ? `${first.column} ${direction === 'DESC' ? '<=' : '>='} (($?::text[])[1])::${first.cast} AND ` : '';
  return { sql: `${lead}${after}`, value: key };
}

/** A sort of a ranged list: its columns in order, ending with created_at and the row's key. */
export interface RangedSort {
  columns: readonly SeekColumn[];
  /** The table columns the order reads (its key and sort columns), e.g. `project_id, id, ip, created_at`. */
  reads: string;
  /** False when a column can be null (a row comparison skips nulls): such a sort pages by offset only. */
  seekable: boolean;
  /**
   * Where this sort's page keys are read from, when its first column comes from a table joined to
   * the listed one (the devices' owner from project_users, docs/decisions/0046): a join the planner
   * may drive from that table's index, walked in order. A seek then also bounds that column alone,
   * which that index answers as its range start. The count, a page among few matches and the rows
   * of the page's keys read the list's table as ever.
   */
  keysFrom?: string;
  /**
   * At most this many matches are sorted in memory (default TOTAL_CAP). A sort whose first column
   * is read from a joined table per match (keysFrom) pays an index descent for each one, so past
   * a few thousand the index walk in order costs less.
   */
  fewCap?: number;
  /**
   * A column this sort's order is also indexed under, first (audit_events_user_idx: project_id,
   * user_id, created_at, id): a filter that is one of a few values of it (Condition.oneOf) has its
   * page read one value at a time, each an ordered walk that stops at the page (ListPageSpec.eachOf).
   */
  alsoUnder?: string;
}

/** The paging part of a ranged list's query (the contract's sort, direction, offset, limit, cursor). */
export interface RangedPaging<S extends string> {
  sort: S;
  direction: 'asc' | 'desc';
  offset: number;
  limit: number;
  cursor?: string | undefined;
}

export interface RangedListSpec<S extends string> {
  table: string;
  /** The columns that identify a row (the join of the page's keys back to their rows). */
  key: string;
  /** The page's SELECT list, aliased to the domain's field names. */
  columns: string;
  /** Every query names the project and a created_at range (projectInRange). */
  projectId: string;
  range: DateRange;
  /** The filters the caller asked for beyond the range (userId, deviceName, …). */
  filters: readonly Condition[];
  /** Those filters' values as asked: with the table, project, range, sort and direction, the cursor's fingerprint. */
  filterValues: readonly unknown[];
  /** The list's sorts by name; `query.sort` picks one. */
  sorts: Readonly<Record<S, RangedSort>>;
  query: RangedPaging<S>;
  /**
   * `table` (a table's name) is partitioned by created_at: the range is restated where the page's
   * rows are read back by key, so the planner prunes to the range's partitions (ListPageSpec.rowsWhere).
   */
  partitioned?: boolean;
}

/**
 * One page of a list over millions of rows (docs/decisions/0019). The total first, counted up to
 * TOTAL_CAP. Then the page's keys: after the cursor's row when the cursor fits this query and
 * offset, else by skipping offset entries; from the sort's index walked in order — or, when filters
 * left at most TOTAL_CAP rows, from all those matches sorted (a rare filter sorted by another column
 * would otherwise walk the sort's index through the whole range looking for them); or, for a filter
 * of a few values of the column the sort is also indexed under (RangedSort.alsoUnder), one ordered
 * walk per value, merged. Then the cursor of the next page.
 */
export async function rangedListPage<T, S extends string = string>(
  db: Db,
  spec: RangedListSpec<S>,
): Promise<{ total: number; totalCapped: boolean; list: T[]; nextCursor: string | null }> {
  const { query } = spec;
  const sort = spec.sorts[query.sort];
  const direction = sqlDirection(query.direction);
  const order = sort.columns;
  const fingerprint = queryFingerprint([
    spec.table,
    spec.projectId,
    spec.range.from.toISOString(),
    spec.range.to.toISOString(),
    ...spec.filterValues,
    query.sort,
    query.direction,
  ]);
  const key = sort.seekable ? readCursor(query.cursor, query.offset, fingerprint, order) : null;
  const oneOf = spec.filters.find((f) => f.oneOf !== undefined && f.oneOf.column === sort.alsoUnder);
  const base: ListPageSpec = {
    table: spec.table,
    key: spec.key,
    columns: sort.seekable ? `${spec.columns}, ARRAY[${order.map((c) => c.text).join(', ')}] AS "seekKey"` : spec.columns,
    where: [...projectInRange(spec.projectId, spec.range), ...spec.filters],
    orderBy: order.map((c) => `${c.column} ${direction}`).join(', '),
    limit: query.limit,
    offset: key ? 0 : query.offset,
    totalCap: TOTAL_CAP,
    seek: key ? [seekAfter(order, direction, key, sort.keysFrom !== undefined)] : [],
    rowsWhere: spec.partitioned ? createdInRange(spec.range, `${spec.table}.created_at`) : [],
  };
  /** The page's keys: a few matches sorted whole, one ordered walk per value of a oneOf filter, or the sort's index walked. */
  const page = (few: boolean) => {
    const { pageSql, pageParams } = listPageSql(
      oneOf?.oneOf
        ? {
            ...base,
            where: base.where.filter((c) => c !== oneOf),
            eachOf: { column: oneOf.oneOf.column, values: { sql: oneOf.oneOf.values, value: oneOf.value } },
          }
        : few
          ? { ...base, matchColumns: sort.reads }
          : { ...base, keysFrom: sort.keysFrom },
    );
    return db.query<T & { seekKey?: string[] }>(pageSql, pageParams);
  };
  // With no filter, or a oneOf filter, the page is read the same way whatever the count (only other
  // filters' matches may be few enough to sort whole): both are asked at once (on two connections
  // where the database has them), and the call takes the longer of the two instead of their sum
  // (issue 38: the count to TOTAL_CAP is most of a call's time).
  const pageIgnoresCount = oneOf?.oneOf !== undefined || spec.filters.length === 0;
  const early = pageIgnoresCount ? page(false) : null;
  // Answered or not, it is awaited below or dropped; a failure before then is the count's to report.
  early?.catch(() => {});
  const { countSql, countParams } = listPageSql(base);
  const counted = Number((await db.query<{ total: number }>(countSql, countParams)).rows[0]?.total ?? 0);
  const capped = counted > TOTAL_CAP;
  const total = capped ? TOTAL_CAP : counted;
  if (!capped && query.offset >= total) return { total, totalCapped: false, list: [], nextCursor: null };

  const few = !capped && spec.filters.length > 0 && total <= (sort.fewCap ?? TOTAL_CAP);
  const rows = (await (early ?? page(few))).rows;
  const last = rows.at(-1);
  const more = rows.length === query.limit && (capped || query.offset + query.limit < total);
  const nextCursor = more && last?.seekKey ? makeCursor(query.offset + query.limit, fingerprint, last.seekKey) : null;
  const list = rows.map(({ seekKey: _seekKey, ...row }) => row as T);
  return { total, totalCapped: capped, list, nextCursor };
}
