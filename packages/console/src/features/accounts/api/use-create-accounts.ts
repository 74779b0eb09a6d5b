import type { ServiceAccountCreate, StaffAccountCreate } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { accountsKeys } from './query-keys.ts';

/** spec §7: POST projects/{project}/accounts. */
export function useCreateAccount(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: StaffAccountCreate) => request(api.createAccount, { params: { project: projectId }, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountsKeys.accounts(projectId) }),
  });
}

/** spec §7: POST projects/{project}/serviceaccounts: the answer holds the token, once. */
export function useCreateServiceAccount(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ServiceAccountCreate) => request(api.createServiceAccount, { params: { project: projectId }, body }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: accountsKeys.accounts(projectId) }),
  });
}
