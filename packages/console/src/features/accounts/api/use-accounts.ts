import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** spec §7: GET projects/{project}/accounts with email and active (spec §9: email ascending). */
export function useAccounts(projectId: string, state: ListState) {
  const { email, active } = state.filters;
  const query = {
    sort: 'email' as const,
    direction: state.direction,
    offset: state.page * state.size,
    limit: state.size,
    email: email || undefined,
    active: active === 'true' ? ('true' as const) : active === 'false' ? ('false' as const) : undefined,
  };
  return useQuery({
    queryKey: queryKeys.accountList(projectId, query),
    queryFn: ({ signal }) => request(api.listAccounts, { params: { project: projectId }, query, signal }),
    placeholderData: (previous) => previous,
  });
}
