import { z } from 'zod';
import { text } from '../validation/fields.ts';
import { exportFormatParam } from './export.ts';
import { cursorParam, dateParam, LIST_RANGE, refineRange, type RangeRules } from './ranged-list.ts';
import { listQuerySchema, queryBoolean, SORT_DIRECTIONS, type SortDirection } from './schema.ts';

// A list is declared once (issue 21): its filters with their kinds, its sorts and the default, and
// whether it is a ranged list (a creation-date range, a capped total, a seek cursor, an export;
// docs/decisions/0019). The declaration gives the contract's query schemas here; the server's list
// kit (server/src/db/list-kit.ts) gives the SQL, the export and the service from it; the console's
// (components/list/declared-filters.tsx) the filter inputs, their chips and the call's query.

/** How a text filter matches: the whole value, its start, or anywhere in it; `caseless`: in any case. */
export type TextMatch = 'exact' | 'prefix' | 'contains';

export type ListFilter =
  | {
      kind: 'text';
      match: TextMatch;
      caseless: boolean;
      /** The parameter's own rule, when more than a clean text (e.g. a country code). */ param?: z.ZodType<string, string>;
    }
  | { kind: 'yesNo' }
  | { kind: 'oneOf'; values: readonly [string, ...string[]] };

/** The value a filter's parameter gives once parsed. */
export type FilterValue<F extends ListFilter> = F extends { kind: 'yesNo' }
  ? boolean
  : F extends { kind: 'oneOf'; values: infer V extends readonly string[] }
    ? V[number]
    : string;

type FilterShape<F extends Record<string, ListFilter>> = { [K in keyof F]: z.ZodOptional<z.ZodType<FilterValue<F[K]>, string>> };

/** A filter's query parameter: what the server takes (the console checks a value with it before sending it). */
export function filterParam(filter: ListFilter): z.ZodType<unknown, string> {
  switch (filter.kind) {
    case 'text':
      return filter.param ?? text();
    case 'yesNo':
      return queryBoolean();
    case 'oneOf':
      return z.enum(filter.values, { error: 'validation.invalid_value' });
  }
}

/** The filters' query parameters, each optional (an empty text filters nothing). */
function filterShape<F extends Record<string, ListFilter>>(filters: F): FilterShape<F> {
  return Object.fromEntries(Object.entries(filters).map(([key, filter]) => [key, filterParam(filter).optional()])) as FilterShape<F>;
}

/** refineRange for a schema whose type is generic here (the range's two fields are always there). */
const refineRangeOfAny = (rules: RangeRules) => (q: unknown, ctx: z.RefinementCtx) =>
  refineRange(q as { fromDate?: string; toDate?: string }, ctx, rules);

export interface ListDeclaration<S extends readonly [string, ...string[]], F extends Record<string, ListFilter>> {
  sorts: S;
  /** spec §9 "Default sorts": the server's default and the console's. */
  defaultSort: { sort: S[number]; direction: SortDirection };
  filters: F;
}

/**
 * A list of a bounded size (applications, accounts): sort, direction, offset, limit and its filters;
 * the total is exact.
 */
export function declareList<const S extends readonly [string, ...string[]], const F extends Record<string, ListFilter>>(d: ListDeclaration<S, F>) {
  const filters = filterShape(d.filters);
  return {
    ...d,
    ranged: false as const,
    query: listQuerySchema(d.sorts, d.defaultSort).extend(filters),
  };
}

/**
 * A list of what happens over time, at millions of rows (devices, audit events; docs/decisions/0019):
 * within a creation-date range (fromDate, toDate; the current month by default, a year at most), a
 * total counted up to TOTAL_CAP, a seek `cursor`, and an export of the same filter (`format`,
 * `direction`; always in created-at order). `filterSchema`: the filter alone, refusing any other key
 * (a bulk action must not ignore a filter it does not know).
 */
export function declareRangedList<const S extends readonly [string, ...string[]], const F extends Record<string, ListFilter>>(
  d: ListDeclaration<S, F> & {
    /** How the creation range defaults and how long it may be: LIST_RANGE (the current month, a year at most) unless told. */
    range?: RangeRules;
  },
) {
  const filters = filterShape(d.filters);
  const rules = d.range ?? LIST_RANGE;
  const refineRangeOfList = refineRangeOfAny(rules);
  const range = () => ({ fromDate: dateParam().optional(), toDate: dateParam().optional() });
  return {
    ...d,
    ranged: true as const,
    range: rules,
    query: listQuerySchema(d.sorts, d.defaultSort)
      .extend({ ...filters, ...range(), cursor: cursorParam().optional() })
      .superRefine(refineRangeOfList),
    exportQuery: z
      .object({
        format: exportFormatParam(),
        direction: z.enum(SORT_DIRECTIONS, { error: 'validation.invalid_value' }).default(d.defaultSort.direction),
        ...filters,
        ...range(),
      })
      .superRefine(refineRangeOfList),
    filterOnly: <K extends keyof F & string>(keys: readonly K[]) =>
      z
        .strictObject(
          { ...(Object.fromEntries(keys.map((k) => [k, filters[k]])) as Pick<FilterShape<F>, K>), ...range() },
          {
            error: 'validation.invalid_value',
          },
        )
        .superRefine(refineRangeOfList),
  };
}
