import type { Project } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

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
      const params = { project: saved.data.id };
      queryClient.setQueryData(readKey(api.getProject, { params }, true), saved);
      queryClient.setQueryData(readKey(api.getProject, { params }), saved.data);
      // Everything of the project (its key is the prefix of all its reads), and every account's project list.
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.getProject, params) });
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listAccountProjects) });
    },
  });
}
