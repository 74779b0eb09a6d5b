import type { Issuer } from '@latchkey/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { settingsKeys } from './query-keys.ts';

/** spec §7: GET projects/{project}/issuer, with its ETag. */
export function useIssuer(projectId: string) {
  return useQuery({
    queryKey: settingsKeys.issuer(projectId),
    queryFn: ({ signal }) => requestTagged(api.getIssuer, { params: { project: projectId }, signal }),
  });
}

/** spec §7: PUT projects/{project}/issuer with If-Match; a stale version (412) reads it again. */
export function useSaveIssuer(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, issuer }: { current: Tagged<Issuer>; issuer: Issuer }) =>
      requestTagged(api.updateIssuer, { params: { project: projectId }, body: issuer, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.issuer(projectId), saved);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.projectDocument(projectId) });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.settingsHistory(projectId) });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: settingsKeys.issuer(projectId) });
    },
  });
}
