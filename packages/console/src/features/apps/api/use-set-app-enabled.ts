import type { Application, ApplicationUpdate } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

/** The cache key of an application as the settings page reads it (with its ETag). */
export const appKey = (applicationId: string) => readKey(api.getApp, { params: { application: applicationId } }, true);

/** spec §7: PUT apps/{application} with If-Match (the ETag it was read with, when there is one). */
export async function updateApp(current: Tagged<Application>, update: ApplicationUpdate): Promise<Tagged<Application>> {
  return requestTagged(api.updateApp, {
    params: { application: current.data.id },
    body: update,
    ifMatch: current.etag,
  });
}

/**
 * spec §4: disable and enable each save the application — its saved name and logo, with the new
 * `enabled` (edits in the form are the Save button's business, not this one's).
 */
export function useSetAppEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, enabled }: { current: Tagged<Application>; enabled: boolean }) =>
      updateApp(current, { name: current.data.name, logoUrl: current.data.logoUrl, enabled }),
    onSuccess: (saved) => {
      queryClient.setQueryData(appKey(saved.data.id), saved);
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listApps, { project: saved.data.projectId }) });
    },
    onError: (error, { current }) => {
      // A stale version (412 conflict): read the application (and its keys) again, so a retry
      // goes with the current ETag.
      if (isApiError(error) && error.status === 412) {
        void queryClient.invalidateQueries({ queryKey: resourceKey(api.getApp, { application: current.data.id }) });
      }
    },
  });
}
