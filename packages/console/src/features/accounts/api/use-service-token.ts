import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { accountsKeys } from './query-keys.ts';

/** Issue 12: a new token for the service account (shown once), or its token revoked; the account is read again after either. */
export function useServiceToken(projectId: string, accountId: string) {
  const queryClient = useQueryClient();
  const params = { project: projectId, account: accountId };
  const reread = () => void queryClient.invalidateQueries({ queryKey: accountsKeys.projectAccount(projectId, accountId) });
  return {
    rotate: useMutation({ mutationFn: () => request(api.rotateServiceToken, { params, body: {} }), onSuccess: reread }),
    revoke: useMutation({ mutationFn: () => request(api.revokeServiceToken, { params }), onSuccess: reread }),
  };
}
