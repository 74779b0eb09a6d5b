import { REVOCATION_REASON, type DeviceList } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';

/**
 * spec §7: POST projects/{project}/mpinids/{mpinId}/revocation with reason PORTAL_REVOKE (spec §9).
 * spec §4: on success the row is marked revoked at once, in every cached page that shows it; the
 * lists are then read again (a filter on status may no longer match), and so is the audit log,
 * which now holds the revocation. A failure reads them again too: the device may have been
 * revoked meanwhile.
 */
export function useRevokeDevice(projectId: string) {
  const queryClient = useQueryClient();
  const devices = resourceKey(api.listDevices, { project: projectId });
  return useMutation({
    mutationFn: (mpinId: string) => request(api.revokeDevice, { params: { project: projectId, mpinId }, body: { reason: REVOCATION_REASON } }),
    onSuccess: ({ mpinId }) => {
      queryClient.setQueriesData<DeviceList>({ queryKey: devices }, (page) =>
        page ? { ...page, list: page.list.map((d) => (d.mpinId === mpinId ? { ...d, revoked: true } : d)) } : page,
      );
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: devices });
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listAuditEvents, { project: projectId }) });
    },
  });
}
