import type { Issuer } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

/** spec §7: PUT projects/{project}/issuer with If-Match; a stale version (412) reads it again. */
export function useSaveIssuer(projectId: string) {
  const queryClient = useQueryClient();
  const params = { project: projectId };
  const issuer = readKey(api.getIssuer, { params }, true);
  return useMutation({
    mutationFn: ({ current, issuer: body }: { current: Tagged<Issuer>; issuer: Issuer }) =>
      requestTagged(api.updateIssuer, { params, body, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(issuer, saved);
      // The project's version moved with it (the settings pages read the project with its ETag).
      void queryClient.invalidateQueries({ queryKey: readKey(api.getProject, { params }, true) });
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listSettingsHistory, params) });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: issuer });
    },
  });
}
