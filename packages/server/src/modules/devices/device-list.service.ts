import { requireDateRange, type DeviceExportQuery, type DeviceIdentity, type DeviceList, type DeviceListQuery } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { exportFile, exportFilename, type CsvColumn, type ExportFile } from '../../export-file.ts';
import { deviceBatches } from './device-export.repository.ts';
import { listDevices } from './device-list.repository.ts';

/** The CSV export's columns (docs/decisions/0019 "Export"): the list's, then the rest of the device. */
const CSV_COLUMNS: ReadonlyArray<CsvColumn<DeviceIdentity>> = [
  { header: 'createdAt', cell: (d) => d.createdAt },
  { header: 'userId', cell: (d) => d.userId },
  { header: 'deviceName', cell: (d) => d.deviceName },
  { header: 'ip', cell: (d) => d.ip },
  { header: 'country', cell: (d) => d.country },
  { header: 'revoked', cell: (d) => String(d.revoked) },
  { header: 'revokedAt', cell: (d) => d.revokedAt },
  { header: 'lastUsedAt', cell: (d) => d.lastUsedAt },
  { header: 'mpinId', cell: (d) => d.mpinId },
];

export interface DeviceListServiceDeps {
  db: Db;
  clock: Clock;
}

export function createDeviceListService({ db, clock }: DeviceListServiceDeps) {
  return {
    /**
     * spec §7 "Devices" list. The guard has checked the project and `revocation`; a closed project
     * is read like any other (spec §4: closed projects are read-only, not hidden). The range
     * defaults to the current month (UTC) of the server's clock and is at most a year.
     */
    async list(projectId: string, query: DeviceListQuery): Promise<DeviceList> {
      return listDevices(db, projectId, requireDateRange(query, clock.now()), query);
    },
    /** Issue 9: the list's filter and range as a CSV or JSON Lines file, streamed in created-at order (see the audit export). */
    export(projectId: string, query: DeviceExportQuery): ExportFile {
      const range = requireDateRange(query, clock.now());
      return exportFile({
        format: query.format,
        filename: exportFilename('devices', projectId, range),
        batches: deviceBatches(db, projectId, range, query),
        columns: CSV_COLUMNS,
        json: (device) => device,
      });
    },
  };
}

export type DeviceListService = ReturnType<typeof createDeviceListService>;
