import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type SortDirection } from '@latchkey/domain';

// spec §2 "List pages (common)": filters, sort, page and page size are kept in the URL hash;
// changing filters resets to page 0. Values equal to the defaults are left out of the hash.

export type Filters = Record<string, string>;

export interface ListState {
  filters: Filters;
  sort: string;
  direction: SortDirection;
  /** 0-based. */
  page: number;
  size: number;
}

export interface ListDefaults {
  sort: string;
  direction: SortDirection;
  /** Filters that have a value when the hash names none (e.g. the current month of a date range). */
  filters?: Filters;
  /** The sortable fields; anything else in the hash falls back to the default sort. */
  sortFields: readonly string[];
  /** The filter names the list understands; other hash keys are ignored. */
  filterKeys: readonly string[];
}

const RESERVED = new Set(['sort', 'direction', 'page', 'size']);

export function initialListState(defaults: ListDefaults): ListState {
  return {
    filters: { ...defaults.filters },
    sort: defaults.sort,
    direction: defaults.direction,
    page: 0,
    size: DEFAULT_PAGE_SIZE,
  };
}

function nonNegativeInt(value: string | null): number | null {
  if (value === null || !/^\d{1,9}$/.test(value)) return null;
  return Number(value);
}

/** Reads a list state from `location.hash` (with or without the leading '#'). */
export function parseListHash(hash: string, defaults: ListDefaults): ListState {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const state = initialListState(defaults);
  for (const key of defaults.filterKeys) {
    const value = params.get(key);
    if (value !== null) {
      if (value === '') delete state.filters[key];
      else state.filters[key] = value;
    }
  }
  const sort = params.get('sort');
  if (sort && defaults.sortFields.includes(sort)) state.sort = sort;
  const direction = params.get('direction');
  if (direction === 'asc' || direction === 'desc') state.direction = direction;
  const size = nonNegativeInt(params.get('size'));
  if (size !== null && (PAGE_SIZES as readonly number[]).includes(size)) state.size = size;
  const page = nonNegativeInt(params.get('page'));
  if (page !== null) state.page = page;
  return state;
}

/** Writes a list state as a hash ('' when everything is at its default). */
export function serializeListHash(state: ListState, defaults: ListDefaults): string {
  const params = new URLSearchParams();
  const defaultFilters = defaults.filters ?? {};
  for (const key of defaults.filterKeys) {
    const value = state.filters[key] ?? '';
    const fallback = defaultFilters[key] ?? '';
    if (value !== fallback) params.set(key, value);
  }
  if (state.sort !== defaults.sort) params.set('sort', state.sort);
  if (state.direction !== defaults.direction) params.set('direction', state.direction);
  if (state.page !== 0) params.set('page', String(state.page));
  if (state.size !== DEFAULT_PAGE_SIZE) params.set('size', String(state.size));
  const text = params.toString();
  return text ? `#${text}` : '';
}

/** A filter changes: the list goes back to its first page. An empty value removes the filter. */
export function withFilter(state: ListState, key: string, value: string): ListState {
  if (RESERVED.has(key)) throw new Error(`'${key}' is not a filter`);
  const filters = { ...state.filters };
  if (value === '') delete filters[key];
  else filters[key] = value;
  return { ...state, filters, page: 0 };
}

/** Clicking a column header: a new column sorts ascending; the same column flips direction. */
export function withSort(state: ListState, field: string): ListState {
  const direction: SortDirection = state.sort === field && state.direction === 'asc' ? 'desc' : 'asc';
  return { ...state, sort: field, direction, page: 0 };
}

export function withPage(state: ListState, page: number): ListState {
  return { ...state, page: Math.max(0, Math.floor(page)) };
}

/** A new page size starts again at the first page. */
export function withSize(state: ListState, size: number): ListState {
  return { ...state, size, page: 0 };
}

/** spec §7 "Paging: offset = page * page size, limit = page size", plus sort and the filters. */
export function toListQuery(state: ListState): Record<string, string | number> {
  return {
    ...state.filters,
    sort: state.sort,
    direction: state.direction,
    offset: state.page * state.size,
    limit: state.size,
  };
}
