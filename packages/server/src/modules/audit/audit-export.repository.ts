import type { AuditEvent, AuditExportQuery, DateRange } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { keysetBatches } from '../../db/keyset-batches.ts';
import { projectInRange } from '../../db/ranged-list-page.ts';
import { COLUMNS, CREATED, filterOf, ID, type Row } from './audit-list.repository.ts';

/** Rows per statement of an export: about 0.5 MB of events at a time. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every event of the audit list's filter in `range`, in created-at order, a batch at a time
 * (docs/decisions/0019 "Export"). Each filter's index ends with (created_at, id), so every batch is
 * one index range read after the last event of the batch before, and the range prunes the partitions.
 */
export async function* auditEventBatches(
  db: Db,
  projectId: string,
  range: DateRange,
  q: AuditExportQuery,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<AuditEvent[]> {
  const batches = keysetBatches<Row>(db, {
    table: 'audit_events',
    columns: COLUMNS,
    where: [...projectInRange(projectId, range), ...filterOf(q)],
    order: [CREATED, ID],
    direction: q.direction,
    batchSize,
  });
  for await (const rows of batches) yield rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
}
