import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { settingsKeys } from './query-keys.ts';

/** Issue 22: GET projects/{project}/issuer/keys — the key signing now and those still published. */
export function useSigningKeys(projectId: string) {
  return useQuery({
    queryKey: settingsKeys.signingKeys(projectId),
    queryFn: ({ signal }) => request(api.getSigningKeys, { params: { project: projectId }, signal }),
  });
}

/** Issue 22: POST projects/{project}/issuer/keys/rotation; the answer is the keys after it, and the history has it. */
export function useRotateSigningKey(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.rotateSigningKey, { params: { project: projectId } }),
    onSuccess: (keys) => {
      queryClient.setQueryData(settingsKeys.signingKeys(projectId), keys);
      // The project's version moved with the rotation.
      void queryClient.invalidateQueries({ queryKey: settingsKeys.issuer(projectId) });
      void queryClient.invalidateQueries({ queryKey: settingsKeys.settingsHistory(projectId) });
    },
  });
}
