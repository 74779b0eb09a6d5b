import { deviceList, type DeviceIdentity } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { rangedListTable } from '../../db/list-kit.ts';
import { rangedListService } from '../../http/list-service.ts';
import { CREATED_AT_TEXT, type SeekColumn } from '../../db/ranged-list-page.ts';
import { iso } from '../../db/rows.ts';

// The devices list (spec §7 "Devices", docs/decisions/0019) on the list kit: the domain's
// declaration (deviceList) read from the devices table.

const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
const ID: SeekColumn = { column: 'id', text: 'id', cast: 'text' };

export interface DeviceRow extends Omit<DeviceIdentity, 'createdAt' | 'lastUsedAt' | 'revokedAt'> {
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A devices row as the domain's device. */
export const deviceFromRow = (r: DeviceRow): DeviceIdentity => ({
  ...r,
  createdAt: iso(r.createdAt),
  lastUsedAt: r.lastUsedAt && iso(r.lastUsedAt),
  revokedAt: r.revokedAt && iso(r.revokedAt),
});

/**
 * Each sort is the column order of one index of migration 0014 (project_id, …, created_at, id),
 * read forwards or backwards. ip can be null, so its pages go by offset only. userId is stored
 * lower-case (user_key), names have a lower-cased key (name_key).
 */
/** The columns of a device as the domain's DeviceIdentity reads them (deviceFromRow). */
export const DEVICE_COLUMNS = `id AS "mpinId", user_key AS "userId", name AS "deviceName", ip, country, created_at AS "createdAt",
    last_used_at AS "lastUsedAt", revoked, revoked_at AS "revokedAt"`;

export const devicesTable = rangedListTable(deviceList, {
  table: 'devices',
  key: 'project_id, id',
  select: DEVICE_COLUMNS,
  fromRow: deviceFromRow,
  filters: { userId: 'user_key', deviceName: 'name_key', ip: 'ip COLLATE "C"', revoked: 'revoked' },
  sorts: {
    createdAt: { columns: [CREATED, ID], reads: 'project_id, id, created_at', seekable: true },
    userId: {
      columns: [{ column: 'user_key', text: 'user_key', cast: 'text' }, CREATED, ID],
      reads: 'project_id, id, user_key, created_at',
      seekable: true,
    },
    deviceName: {
      columns: [{ column: 'name_key', text: 'name_key', cast: 'text' }, CREATED, ID],
      reads: 'project_id, id, name_key, created_at',
      seekable: true,
    },
    ip: { columns: [{ column: 'ip COLLATE "C"', text: 'ip', cast: 'text' }, CREATED, ID], reads: 'project_id, id, ip, created_at', seekable: false },
    revoked: {
      columns: [{ column: 'revoked', text: 'revoked::text', cast: 'boolean' }, CREATED, ID],
      reads: 'project_id, id, revoked, created_at',
      seekable: true,
    },
  },
});

/** The CSV export's columns (docs/decisions/0019 "Export"): the list's, then the rest of the device. */
export const DEVICE_CSV = ['createdAt', 'userId', 'deviceName', 'ip', 'country', 'revoked', 'revokedAt', 'lastUsedAt', 'mpinId'] as const;

export const createDeviceListService = (deps: { db: Db; clock: Clock }) =>
  rangedListService(devicesTable, deps, { name: 'devices', csv: DEVICE_CSV });
export type DeviceListService = ReturnType<typeof createDeviceListService>;
