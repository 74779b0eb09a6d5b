import type { Project } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { settingsKeys } from './query-keys.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * spec §7 "PUT projects/{id}/meta" with enabled false (spec §4: closing clears purchaseOrder and
 * referrer, which the server does). Every page of the project reads it again: forms lock, the
 * banner shows, add buttons go.
 */
export function useCloseProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (current: Tagged<Project>) =>
      requestTagged(api.updateProjectMeta, {
        params: { project: current.data.id },
        body: { enabled: false, purchaseOrder: '', referrer: '' },
        ifMatch: current.etag,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.projectDocument(saved.data.id), saved);
      queryClient.setQueryData(queryKeys.project(saved.data.id), saved.data);
      void queryClient.invalidateQueries({ queryKey: queryKeys.project(saved.data.id) });
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
    },
  });
}
