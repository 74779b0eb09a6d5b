import type { DateRange, DeviceFilter } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { bind, type Condition } from '../../db/list-page.ts';
import { devicesTable } from './device-list.ts';

/** The active devices of the list's filter registered in `range` (docs/decisions/0019 "Bulk revocation"). */
function activeMatching(projectId: string, range: DateRange, filter: DeviceFilter): Condition[] {
  return devicesTable.where(projectId, range, { ...filter, revoked: false });
}

/** How many active devices match: exact (one index range of the filter's index; the confirm states it). */
export async function countActiveMatching(db: Db, projectId: string, range: DateRange, filter: DeviceFilter): Promise<number> {
  const params: unknown[] = [];
  const where = bind(activeMatching(projectId, range, filter), params);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

/** The ids of up to `limit` active matching devices, oldest first. */
export async function activeMatchingIds(db: Db, projectId: string, range: DateRange, filter: DeviceFilter, limit: number): Promise<string[]> {
  const params: unknown[] = [];
  const where = bind(activeMatching(projectId, range, filter), params);
  params.push(limit);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM devices WHERE ${where} ORDER BY created_at, id LIMIT $${params.length}`, params);
  return rows.map((r) => r.id);
}
