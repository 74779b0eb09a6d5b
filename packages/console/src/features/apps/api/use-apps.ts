import { APP_SORT_FIELDS } from '@latchkey/domain';
import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { toListQuery } from '../../../lib/list-state/list-state.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

type AppSortField = (typeof APP_SORT_FIELDS)[number];

function isAppSortField(value: string): value is AppSortField {
  return (APP_SORT_FIELDS as readonly string[]).includes(value);
}

function booleanFilter(value: string | undefined): 'true' | 'false' | undefined {
  return value === 'true' || value === 'false' ? value : undefined;
}

/** The list state as the call's query: paging from toListQuery, the filters the contract knows. */
export function appListQuery(state: ListState) {
  const { offset, limit } = toListQuery(state);
  const { name, enabled } = state.filters;
  return {
    sort: isAppSortField(state.sort) ? state.sort : 'name',
    direction: state.direction,
    offset,
    limit,
    name: name || undefined,
    enabled: booleanFilter(enabled),
  };
}

/**
 * spec §7: GET projects/{project}/apps with sort, direction, offset, limit and the filters. While a
 * new page or filter loads, the previous rows of the same project stay on screen.
 */
export function useApps(projectId: string, state: ListState) {
  const query = appListQuery(state);
  return useQuery({
    queryKey: queryKeys.appList(projectId, query),
    queryFn: ({ signal }) => request(api.listApps, { params: { project: projectId }, query, signal }),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === projectId ? previous : undefined),
  });
}
