import { useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { DownloadProgress } from '../api/index.ts';
import type { Filters, ListState } from './list-state.ts';

/** A page of a list that can hold millions of rows (devices, audit events; docs/decisions/0019). */
export interface RangedPage<T> {
  /** Counted up to 10,000; `totalCapped`: there are more ("10,000+"). */
  total: number;
  totalCapped: boolean;
  list: T[];
  /** Sent back as `cursor` with the next offset, the next page is a seek instead of a skip. */
  nextCursor: string | null;
}

/**
 * The list state's date filters (`YYYY-MM-DD`) as the call sends them (spec §7 "Usage": fromDate
 * as the date plus T00:00:00Z, toDate as the date plus T23:59:59Z); an absent one is left to the
 * server's default (the current month, spec §9).
 */
export function dateRangeQuery(filters: Filters): { fromDate?: string; toDate?: string } {
  const { fromDate, toDate } = filters;
  return {
    ...(fromDate ? { fromDate: `${fromDate}T00:00:00Z` } : {}),
    ...(toDate ? { toDate: `${toDate}T23:59:59Z` } : {}),
  };
}

type PageQuery = { offset: number; limit: number };

interface RangedListOptions<Q extends PageQuery, T> {
  projectId: string;
  query: Q;
  /** The cache key of one page of this list: ['projects', projectId, …, query]. */
  keyOf: (query: Q) => QueryKey;
  load: (query: Q & { cursor?: string }, signal: AbortSignal) => Promise<RangedPage<T>>;
}

/**
 * One page of a ranged list. Moving to the next page sends the page before's `nextCursor` (when
 * that page is in the cache), so page 1,000 costs what page 2 does; the cursor is not part of the
 * cache key, a page is the same page however it was reached. While a new page or filter loads, the
 * previous rows of the same project stay on screen (marked as refreshing by the list).
 */
export function useRangedList<Q extends PageQuery, T>({ projectId, query, keyOf, load }: RangedListOptions<Q, T>) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: keyOf(query),
    queryFn: ({ signal }) => {
      const before =
        query.offset >= query.limit ? queryClient.getQueryData<RangedPage<T>>(keyOf({ ...query, offset: query.offset - query.limit })) : undefined;
      const cursor = before?.nextCursor ?? undefined;
      return load(cursor ? { ...query, cursor } : query, signal);
    },
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === projectId ? previous : undefined),
  });
}

/** What an export of a list is given by the Export menu (components/list/export-menu.tsx). */
export interface ExportRun {
  signal: AbortSignal;
  onProgress: (progress: DownloadProgress) => void;
}

/**
 * The export's `direction` (docs/decisions/0019 "Export"): files are in created-at order, the list's
 * direction when the list is sorted by date, else newest first.
 */
export function exportDirection(state: ListState, byDefault: ListState['direction']): ListState['direction'] {
  return state.sort === 'createdAt' ? state.direction : byDefault;
}
