import type { SettingsPage } from '@latchkey/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { readKey } from '../../../lib/api/query-key.ts';

/** Issue 11: GET projects/{project}/settings/history of one page, 20 changes at a time, newest first. */
export function useSettingsHistory(projectId: string, page: SettingsPage, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: readKey(api.listSettingsHistory, { params: { project: projectId }, query: { page } }),
    enabled,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam, signal }) =>
      request(api.listSettingsHistory, { params: { project: projectId }, query: { page, ...(pageParam ? { cursor: pageParam } : {}) }, signal }),
    getNextPageParam: (last) => last.nextCursor,
  });
}
