import { skipToken, useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** spec §7: GET projects/{project}. Null: nothing to load (not in a project, or not allowed to). */
export function useProject(projectId: string | null) {
  return useQuery({
    queryKey: queryKeys.project(projectId ?? ''),
    queryFn: projectId ? ({ signal }) => request(api.getProject, { params: { project: projectId }, signal }) : skipToken,
  });
}
