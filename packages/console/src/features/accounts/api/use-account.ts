import type { AccountUpdate } from '@latchkey/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** spec §7: GET projects/{project}/accounts/{id}. */
export function useAccount(projectId: string, accountId: string) {
  return useQuery({
    queryKey: queryKeys.projectAccount(projectId, accountId),
    queryFn: ({ signal }) => request(api.getProjectAccount, { params: { project: projectId, account: accountId }, signal }),
  });
}

/** spec §7: PUT projects/{project}/accounts/{id} with its permissions and status. */
export function useUpdateAccount(projectId: string, accountId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (update: AccountUpdate) => request(api.updateAccount, { params: { project: projectId, account: accountId }, body: update }),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.projectAccount(projectId, accountId), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.accounts(projectId) });
    },
  });
}
