import { requireDateRange, type AuditList, type AuditListQuery } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { listAuditEvents } from './audit-list.repository.ts';

export interface AuditListServiceDeps {
  db: Db;
  clock: Clock;
}

export function createAuditListService({ db, clock }: AuditListServiceDeps) {
  return {
    /**
     * spec §7 "Audit". The guard has checked the project and `audit`; a closed project's log is
     * read like any other. The range defaults to the current month (UTC) of the server's clock and
     * is at most a year, so a query touches at most 13 monthly partitions.
     */
    async list(projectId: string, query: AuditListQuery): Promise<AuditList> {
      return listAuditEvents(db, projectId, requireDateRange(query, clock.now()), query);
    },
  };
}

export type AuditListService = ReturnType<typeof createAuditListService>;
