import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { searchKeys } from './query-keys.ts';

/**
 * GET /search (issue 13): what the signed-in account may see that matches `q`, the current
 * project's first. Nothing is asked for an empty query; while a new query runs, the last answer stays.
 */
export function useSearch(q: string, projectId: string | null) {
  const query = q.trim();
  return useQuery({
    queryKey: searchKeys.search(query, projectId),
    queryFn: ({ signal }) => request(api.search, { query: { q: query, ...(projectId ? { project: projectId } : {}) }, signal }),
    enabled: query.length > 0,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
