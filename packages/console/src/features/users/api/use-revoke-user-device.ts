import { REVOCATION_REASON } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { usersKeys } from './query-keys.ts';

/** spec §7: POST projects/{project}/mpinids/{mpinId}/revocation, from a user's page; their page and the lists are read again. */
export function useRevokeUserDevice(projectId: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mpinId: string) => request(api.revokeDevice, { params: { project: projectId, mpinId }, body: { reason: REVOCATION_REASON } }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: usersKeys.user(projectId, userId) });
      void queryClient.invalidateQueries({ queryKey: ['projects', projectId, 'devices'] });
      void queryClient.invalidateQueries({ queryKey: queryKeys.auditEvents(projectId) });
    },
  });
}
