import { useQuery } from '@tanstack/react-query';
import { api, requestTagged } from '../../../lib/api/index.ts';
import { settingsKeys } from './query-keys.ts';

/** spec §7: GET projects/{project}, with its ETag (sent back as If-Match when a settings page saves). */
export function useProjectDocument(projectId: string) {
  return useQuery({
    queryKey: settingsKeys.projectDocument(projectId),
    queryFn: ({ signal }) => requestTagged(api.getProject, { params: { project: projectId }, signal }),
  });
}
