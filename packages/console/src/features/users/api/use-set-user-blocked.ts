import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { usersKeys } from './query-keys.ts';

/**
 * POST projects/{project}/users/{user}/block or /unblock. The user's page and the lists are read
 * again (blocking ends their sessions), and so is the audit log, which now holds the change.
 */
export function useSetUserBlocked(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (blocked: boolean) => request(blocked ? api.blockEndUser : api.unblockEndUser, { params: { project: projectId, user: userId } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.users(projectId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents(projectId) });
    },
  });
}
