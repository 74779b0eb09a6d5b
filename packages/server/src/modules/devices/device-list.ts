import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { rangedListService } from '../../http/list-service.ts';
import { devicesTable } from '../../people/devices.repository.ts';

// The devices list (spec §7 "Devices", docs/decisions/0019): the table's declaration lives with the
// devices' owner (people/devices.repository.ts); this is its service, export included.

/** The CSV export's columns (docs/decisions/0019 "Export"): the list's, then the rest of the device. */
export const DEVICE_CSV = ['createdAt', 'userId', 'deviceName', 'ip', 'country', 'revoked', 'revokedAt', 'lastUsedAt', 'mpinId'] as const;

export const createDeviceListService = (deps: { db: Db; clock: Clock }) =>
  rangedListService(devicesTable, deps, { name: 'devices', csv: DEVICE_CSV });
export type DeviceListService = ReturnType<typeof createDeviceListService>;
