import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { usersKeys } from './query-keys.ts';

/** DELETE projects/{project}/users/{user}: erasure (docs/decisions/0038). The lists and the audit log are read again. */
export function useDeleteUser(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.deleteEndUser, { params: { project: projectId, user: userId } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: usersKeys.user(projectId, userId) });
      void queryClient.invalidateQueries({ queryKey: usersKeys.users(projectId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents(projectId) });
    },
  });
}
