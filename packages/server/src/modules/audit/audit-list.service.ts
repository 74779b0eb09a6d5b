import { requireDateRange, type AuditEvent, type AuditExportQuery, type AuditList, type AuditListQuery } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { exportFile, exportFilename, type CsvColumn, type ExportFile } from '../../export-file.ts';
import { auditEventBatches } from './audit-export.repository.ts';
import { listAuditEvents } from './audit-list.repository.ts';

/** The CSV export's columns (docs/decisions/0019 "Export"): the list's, the rest of the event, details as JSON, the id last. */
const CSV_COLUMNS: ReadonlyArray<CsvColumn<AuditEvent>> = [
  { header: 'createdAt', cell: (e) => e.createdAt },
  { header: 'userID', cell: (e) => e.userID },
  { header: 'deviceName', cell: (e) => e.deviceName },
  { header: 'scope', cell: (e) => e.scope },
  { header: 'eventStatus', cell: (e) => e.eventStatus },
  { header: 'ip', cell: (e) => e.ip },
  { header: 'country', cell: (e) => e.country },
  { header: 'clientId', cell: (e) => e.clientId },
  { header: 'userAgent', cell: (e) => e.userAgent },
  { header: 'details', cell: (e) => JSON.stringify(e.details) },
  { header: 'id', cell: (e) => e.id },
];

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
    /**
     * Issue 9: the list's filter and range as a CSV or JSON Lines file, streamed in created-at order
     * a batch at a time while the client takes it (a million events never held at once). The range
     * is checked before the answer starts (400); the guard is the list's.
     */
    export(projectId: string, query: AuditExportQuery): ExportFile {
      const range = requireDateRange(query, clock.now());
      return exportFile({
        format: query.format,
        filename: exportFilename('audit', projectId, range),
        batches: auditEventBatches(db, projectId, range, query),
        columns: CSV_COLUMNS,
        json: (event) => event,
      });
    },
  };
}

export type AuditListService = ReturnType<typeof createAuditListService>;
