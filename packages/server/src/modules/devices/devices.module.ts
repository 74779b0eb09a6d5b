import { devicesApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createDeviceListService } from './device-list.ts';
import { createDevicesService } from './devices.service.ts';

/** spec §7 "Devices". */
export default apiModule(devicesApi, {
  services: ({ db, clock, audit, secretBox, logoutNoticesQueued }) => ({
    devices: createDevicesService({ db, clock, audit, secretBox, logoutNoticesQueued }),
    list: createDeviceListService({ db, clock }),
  }),
  endpoints: ({ devices, list }) => ({
    listDevices: async ({ params, query }) => list.list(params.project, query),
    revokeDevice: async ({ params, actor }) => devices.revoke(actor(), params.project, params.mpinId),
    exportDevices: async ({ params, query }) => list.export(params.project, query),
    revokeDevices: async ({ params, body, actor }) => devices.revokeMatching(actor(), params.project, body),
  }),
});
