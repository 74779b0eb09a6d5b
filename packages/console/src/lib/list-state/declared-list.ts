import { filterParam, type ListFilter, type RangeRules, type SortDirection } from '@latchkey/domain';
import { useState } from 'react';
import { currentMonthDays } from '../format-date.ts';
import { toListQuery, type Filters, type ListDefaults, type ListState } from './list-state.ts';
import { dateRangeQuery } from './use-ranged-list.ts';
import { useListState } from './use-list-state.ts';

// The console's half of a list's declaration (issue 21; domain/src/list/declare.ts): the address's
// list state, the call's query and the export's filter come from the domain's declaration, so a
// list's page names its columns and its filters' labels, nothing else.

/** What the console reads of a domain list declaration. */
export interface DeclaredList {
  sorts: readonly string[];
  defaultSort: { sort: string; direction: SortDirection };
  filters: Readonly<Record<string, ListFilter>>;
  ranged: boolean;
  /** A ranged list's range rules (the domain's): LIST_RANGE's current month, or every time (the users list). */
  range?: RangeRules;
}

/** A ranged list whose range has no longest length (ALL_TIME_RANGE): no dates by default, any range. */
export const coversAllTime = (declared: DeclaredList): boolean => declared.range !== undefined && !Number.isFinite(declared.range.maxDays);

/** The list state's defaults: the declared sorts and filters (and, for a ranged list, its date range). */
function listDefaultsOf(declared: DeclaredList, filters?: Filters, shown: readonly string[] = Object.keys(declared.filters)): ListDefaults {
  return {
    sort: declared.defaultSort.sort,
    direction: declared.defaultSort.direction,
    sortFields: declared.sorts,
    filterKeys: [...shown, ...(declared.ranged ? ['fromDate', 'toDate'] : [])],
    ...(filters ? { filters } : {}),
  };
}

/**
 * The state of a declared list in the address, with the filters the page shows (`shown`, default
 * all that are declared). A ranged list's date range defaults to the current month (spec §9) as of
 * opening the page — or to none, for a list over every time — : `month` is that default, constant
 * while the page is open.
 */
export function useDeclaredListState(declared: DeclaredList, shown?: readonly string[]) {
  const [{ month, defaults }] = useState(() => {
    if (declared.ranged && coversAllTime(declared))
      return { month: { fromDate: '', toDate: '' }, defaults: listDefaultsOf(declared, undefined, shown) };
    const days = declared.ranged ? currentMonthDays(new Date()) : null;
    return { month: days, defaults: listDefaultsOf(declared, days ?? undefined, shown) };
  });
  return { list: useListState(defaults), month };
}

/**
 * The list state's filters as the call sends them: each declared filter whose value its parameter
 * takes (anything else in the address is left out, never sent to be refused), and a ranged list's
 * dates. The list and its export share them.
 */
export function declaredFilterQuery(declared: DeclaredList, filters: Filters): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = {};
  for (const [key, filter] of Object.entries(declared.filters)) {
    const value = filters[key];
    query[key] = value && filterParam(filter).safeParse(value).success ? value : undefined;
  }
  return declared.ranged ? { ...query, ...dateRangeQuery(filters) } : query;
}

/** The list state as the call's query: sort (a declared one), direction, offset and limit, and the filters. */
export function declaredListQuery(declared: DeclaredList, state: ListState) {
  const paging = toListQuery(state);
  const sort = declared.sorts.includes(state.sort) ? state.sort : declared.defaultSort.sort;
  return {
    sort,
    direction: state.direction,
    offset: Number(paging['offset']),
    limit: Number(paging['limit']),
    ...declaredFilterQuery(declared, state.filters),
  };
}
