import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { usersKeys } from './query-keys.ts';

/** POST projects/{project}/users/{user}/sessions/{session}/end, or …/sessions/end for every one of theirs (`session` undefined). */
export function useEndSessions(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (session: string | undefined) =>
      session === undefined
        ? request(api.endEndUserSessions, { params: { project: projectId, user: userId } })
        : request(api.endEndUserSession, { params: { project: projectId, user: userId, session } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.user(projectId, userId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents(projectId) });
    },
  });
}
