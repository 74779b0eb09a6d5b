import type { DateRange, ListFilter, RangeRules, SortDirection } from '@latchkey/domain';
import type { Db } from './db.ts';
import { keysetBatches } from './keyset-batches.ts';
import { eq, escapeLike, listPage, listPageSql, sqlDirection, type Condition, type ListPageSpec } from './list-page.ts';
import { projectInRange, rangedListPage, type RangedSort } from './ranged-list-page.ts';

// The server's half of a list's declaration (issue 21): which table and columns answer the domain's
// declaration (domain/src/list/declare.ts), and how each filter and sort reads them. From it come the
// repository's SQL (a page and its total, through list-page.ts and ranged-list-page.ts), the export's
// batches and, with list-service.ts, the service. A list resource writes this and its row's boundary
// function, nothing else.

/**
 * A filter's own condition, where comparing one column is not enough (the audit log's user: an id,
 * an identity's person or its pseudonym; docs/decisions/0046): made from the value asked for and
 * the project, one `$?` value.
 */
export type FilterCondition = (value: string, projectId: string) => Condition;

/** The filters of a domain declaration, each with the column (or expression) it compares, or its own condition. */
type FilterColumns<F extends Record<string, ListFilter>> = { readonly [K in keyof F]: string | FilterCondition };

interface Declared<S extends readonly string[], F extends Record<string, ListFilter>> {
  sorts: S;
  filters: F;
}

interface TableSpec<Row, T, F extends Record<string, ListFilter>> {
  table: string;
  /** The columns that identify a row (the join of the page's keys back to their rows). */
  key: string;
  /** The SELECT list, aliased to `Row`'s fields. */
  select: string;
  /** The entity's one boundary function: a row as the domain's type (dates made ISO text once, here). */
  fromRow: (row: Row) => T;
  filters: FilterColumns<F>;
}

/**
 * A filter's condition on its column, by its kind: a text matched whole, by its start or anywhere
 * (LIKE with its own `%` and `_` taken literally), in any case when `caseless` (the column then holds
 * the lower-cased text: a key column); a yes/no or one-of value compared as is. An absent or empty
 * value filters nothing.
 */
function filterCondition(filter: ListFilter, column: string | FilterCondition, value: unknown, projectId: string): Condition | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof column === 'function') return column(String(value), projectId);
  if (filter.kind !== 'text') return eq(column, value);
  const text = String(value);
  const param = filter.caseless ? 'lower($?)' : '$?';
  switch (filter.match) {
    case 'exact':
      return { sql: `${column} = ${param}`, value: text };
    case 'prefix':
      return { sql: `${column} LIKE ${param}`, value: `${escapeLike(text)}%` };
    case 'contains':
      return { sql: `${column} LIKE ${param}`, value: `%${escapeLike(text)}%` };
  }
}

/** The conditions of the declared filters present in `query`, in declaration order, and their values (for a cursor's fingerprint). */
function filtersOf<F extends Record<string, ListFilter>>(
  declared: F,
  columns: FilterColumns<F>,
  query: Partial<Record<keyof F, unknown>>,
  projectId: string,
) {
  const conditions: Condition[] = [];
  const values: unknown[] = [];
  const present: (keyof F)[] = [];
  for (const key of Object.keys(declared) as (keyof F & string)[]) {
    const condition = filterCondition(declared[key] as ListFilter, columns[key], query[key], projectId);
    values.push(condition ? query[key] : null);
    if (condition) {
      conditions.push(condition);
      present.push(key);
    }
  }
  return { conditions, values, present };
}

interface RangedPagingQuery<S extends string> {
  sort: S;
  direction: SortDirection;
  offset: number;
  limit: number;
  cursor?: string | undefined;
}

/**
 * A ranged list (devices, audit events; docs/decisions/0019): each sort is the column order of one
 * index, `createdAt` among them — the order of the export's batches.
 */
export function rangedListTable<S extends readonly [string, ...string[]], F extends Record<string, ListFilter>, Row, T>(
  declared: Declared<S, F> & { range: RangeRules },
  spec: TableSpec<Row, T, F> & {
    sorts: Readonly<Record<S[number], RangedSort>> & { createdAt: RangedSort };
    /** `table` is partitioned by created_at (audit_events' months): see RangedListSpec.partitioned. */
    partitioned?: boolean;
  },
) {
  return {
    /** How a call's creation range defaults and how long it may be (the declaration's). */
    range: declared.range,
    /** The declared filters of `query` as conditions (a bulk action reuses them). */
    where(projectId: string, range: DateRange, query: Partial<Record<keyof F, unknown>>): Condition[] {
      return [...projectInRange(projectId, range), ...filtersOf(declared.filters, spec.filters, query, projectId).conditions];
    },
    /** One page of the project's rows created in `range`, its total counted up to TOTAL_CAP, and the next page's cursor. */
    async page(db: Db, projectId: string, range: DateRange, query: RangedPagingQuery<S[number]> & Partial<Record<keyof F, unknown>>) {
      const filters = filtersOf(declared.filters, spec.filters, query, projectId);
      const page = await rangedListPage<Row, S[number]>(db, {
        table: spec.table,
        key: spec.key,
        columns: spec.select,
        projectId,
        range,
        filters: filters.conditions,
        filterValues: filters.values,
        sorts: spec.sorts,
        query,
        partitioned: spec.partitioned ?? false,
      });
      return { ...page, list: page.list.map(spec.fromRow) };
    },
    /** Every row of the filter in `range`, in created-at order, a batch at a time (docs/decisions/0019 "Export"). */
    async *batches(
      db: Db,
      projectId: string,
      range: DateRange,
      query: { direction: SortDirection } & Partial<Record<keyof F, unknown>>,
      batchSize: number,
    ) {
      const rows = keysetBatches<Row>(db, {
        table: spec.table,
        columns: spec.select,
        where: this.where(projectId, range, query),
        order: spec.sorts.createdAt.columns,
        direction: query.direction,
        batchSize,
      });
      for await (const batch of rows) yield batch.map(spec.fromRow);
    },
  };
}

/**
 * A list of bounded size (applications, accounts): each sort an ORDER BY that ends with the key, so
 * paging never repeats or skips a row; the total exact — or, when `counter` answers every filter
 * present, read from that kept counter table (e.g. application_counts).
 */
export function listTable<S extends readonly [string, ...string[]], F extends Record<string, ListFilter>, Row, T>(
  declared: Declared<S, F>,
  spec: TableSpec<Row, T, F> & {
    sorts: Readonly<Record<S[number], (direction: 'ASC' | 'DESC') => string>>;
    /** The rows of the project: conditions every call starts with. */
    scope: (projectId: string) => Condition[];
    counter?: { sql: string; filters: ReadonlyArray<keyof F> };
  },
) {
  const pageSpec = (
    projectId: string,
    query: { sort: S[number]; direction: SortDirection; offset: number; limit: number } & Partial<Record<keyof F, unknown>>,
  ): ListPageSpec => {
    const scope = spec.scope(projectId);
    const filters = filtersOf(declared.filters, spec.filters, query, projectId);
    const counted = spec.counter && filters.present.every((key) => spec.counter?.filters.includes(key));
    return {
      table: spec.table,
      key: spec.key,
      columns: spec.select,
      where: [...scope, ...filters.conditions],
      orderBy: spec.sorts[query.sort](sqlDirection(query.direction)),
      limit: query.limit,
      offset: query.offset,
      totalFrom: counted && spec.counter ? { sql: spec.counter.sql, where: [...scope, ...filters.conditions] } : null,
    };
  };
  return {
    /** The two statements of a call, exactly as run (the bench EXPLAINs them). */
    sql: (projectId: string, query: Parameters<typeof pageSpec>[1]) => listPageSql(pageSpec(projectId, query)),
    /** One page of the project's rows and the number matching the filters. */
    async page(db: Db, projectId: string, query: Parameters<typeof pageSpec>[1]): Promise<{ total: number; list: T[] }> {
      const page = await listPage<Row>(db, pageSpec(projectId, query));
      return { total: page.total, list: page.list.map(spec.fromRow) };
    },
  };
}
