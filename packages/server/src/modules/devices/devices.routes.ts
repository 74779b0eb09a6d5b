import type { FastifyInstance } from 'fastify';
import { devicesApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { DeviceListService } from './device-list.ts';
import type { DevicesService } from './devices.service.ts';

/** spec §7 "Devices". */
export function registerDeviceRoutes(app: FastifyInstance, devices: DevicesService, deviceList: DeviceListService): void {
  registerEndpoint(app, devicesApi.listDevices, async ({ params, query }) => deviceList.list(params.project, query));
  registerEndpoint(app, devicesApi.revokeDevice, async ({ params, actor }) => devices.revoke(actor(), params.project, params.mpinId));
  registerEndpoint(app, devicesApi.exportDevices, async ({ params, query }) => deviceList.export(params.project, query));
  registerEndpoint(app, devicesApi.revokeDevices, async ({ params, body, actor }) => devices.revokeMatching(actor(), params.project, body));
}
