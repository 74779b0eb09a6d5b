import type { DateRange, DeviceExportQuery, DeviceIdentity } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { keysetBatches } from '../../db/keyset-batches.ts';
import { projectInRange } from '../../db/ranged-list-page.ts';
import { COLUMNS, CREATED, filterOf, ID, iso, type Row } from './device-list.repository.ts';

/** Rows per statement of an export. */
export const EXPORT_BATCH_SIZE = 1000;

/**
 * Every device of the devices list's filter registered in `range`, in created-at order, a batch at
 * a time (docs/decisions/0019 "Export"): each batch one read of the (project_id, …, created_at, id)
 * index of the filter, after the last device of the batch before.
 */
export async function* deviceBatches(
  db: Db,
  projectId: string,
  range: DateRange,
  q: DeviceExportQuery,
  batchSize = EXPORT_BATCH_SIZE,
): AsyncGenerator<DeviceIdentity[]> {
  const batches = keysetBatches<Row>(db, {
    table: 'devices',
    columns: COLUMNS,
    where: [...projectInRange(projectId, range), ...filterOf(q)],
    order: [CREATED, ID],
    direction: q.direction,
    batchSize,
  });
  for await (const rows of batches) {
    yield rows.map((r) => ({ ...r, createdAt: iso(r.createdAt) as string, lastUsedAt: iso(r.lastUsedAt), revokedAt: iso(r.revokedAt) }));
  }
}
