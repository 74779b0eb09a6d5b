import type { Account, AccountUpdate } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

/** spec §7: PUT projects/{project}/accounts/{id} with its permissions and status, If-Match; a stale version (412) reads it again. */
export function useUpdateAccount(projectId: string, accountId: string) {
  const queryClient = useQueryClient();
  const params = { project: projectId, account: accountId };
  const key = readKey(api.getProjectAccount, { params }, true);
  return useMutation({
    mutationFn: ({ current, update }: { current: Tagged<Account>; update: AccountUpdate }) =>
      requestTagged(api.updateAccount, { params, body: update, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listAccounts, params) });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
