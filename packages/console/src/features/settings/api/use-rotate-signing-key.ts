import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

/** Issue 22: POST projects/{project}/issuer/keys/rotation; the answer is the keys after it, and the history has it. */
export function useRotateSigningKey(projectId: string) {
  const queryClient = useQueryClient();
  const params = { project: projectId };
  return useMutation({
    mutationFn: () => request(api.rotateSigningKey, { params }),
    onSuccess: (keys) => {
      queryClient.setQueryData(readKey(api.getSigningKeys, { params }), keys);
      // The project's version moved with the rotation: the issuer (and, under it, these keys) is read again.
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.getIssuer, params) });
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listSettingsHistory, params) });
    },
  });
}
