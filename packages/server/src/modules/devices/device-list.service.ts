import { requireDateRange, type DeviceList, type DeviceListQuery } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { listDevices } from './device-list.repository.ts';

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
  };
}

export type DeviceListService = ReturnType<typeof createDeviceListService>;
