import type { Account, AccountUpdate } from '@latchkey/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { accountsKeys } from './query-keys.ts';

/** spec §7: GET projects/{project}/accounts/{id}, with its ETag (sent back as If-Match on save). */
export function useAccount(projectId: string, accountId: string) {
  return useQuery({
    queryKey: accountsKeys.projectAccount(projectId, accountId),
    queryFn: ({ signal }) => requestTagged(api.getProjectAccount, { params: { project: projectId, account: accountId }, signal }),
  });
}

/** spec §7: PUT projects/{project}/accounts/{id} with its permissions and status, If-Match; a stale version (412) reads it again. */
export function useUpdateAccount(projectId: string, accountId: string) {
  const queryClient = useQueryClient();
  const key = accountsKeys.projectAccount(projectId, accountId);
  return useMutation({
    mutationFn: ({ current, update }: { current: Tagged<Account>; update: AccountUpdate }) =>
      requestTagged(api.updateAccount, { params: { project: projectId, account: accountId }, body: update, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      void queryClient.invalidateQueries({ queryKey: accountsKeys.accounts(projectId) });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
