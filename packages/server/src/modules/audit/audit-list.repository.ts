import type { AuditEvent, AuditListQuery, AuditSortField, DateRange } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { eq, escapeLike, type Condition } from '../../db/list-page.ts';
import { CREATED_AT_TEXT, rangedListPage, type RangedSort, type SeekColumn } from '../../db/ranged-list-page.ts';

// Every sort ends with the table's key order (migration 0010): created_at, then the time-ordered id.
export const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
export const ID: SeekColumn = { column: 'id', text: 'id::text', cast: 'uuid' };

/**
 * Each sort is the column order of one index (the key, or migration 0014's (project_id, …,
 * created_at, id) on every partition), read forwards or backwards. userID and device name can be
 * null (console actions of no device), so those sorts page by offset only.
 */
const KEY = 'project_id, created_at, id';
const SORTS: Record<AuditSortField, RangedSort> = {
  createdAt: { columns: [CREATED, ID], reads: KEY, seekable: true },
  userId: { columns: [{ column: 'user_id', text: 'user_id', cast: 'text' }, CREATED, ID], reads: `${KEY}, user_id`, seekable: false },
  deviceName: { columns: [{ column: 'device_key', text: 'device_key', cast: 'text' }, CREATED, ID], reads: `${KEY}, device_key`, seekable: false },
  scope: { columns: [{ column: 'scope', text: 'scope', cast: 'text' }, CREATED, ID], reads: `${KEY}, scope`, seekable: true },
  result: { columns: [{ column: 'event_status', text: 'event_status', cast: 'text' }, CREATED, ID], reads: `${KEY}, event_status`, seekable: true },
};

// id is a uuid, read as its text form by both drivers; not cast here, so ORDER BY id stays the key's order.
export const COLUMNS = `id, created_at AS "createdAt", user_id AS "userID", device_name AS "deviceName", scope,
  event_status AS "eventStatus", ip, country, client_id AS "clientId", user_agent AS "userAgent", details`;

export type Row = Omit<AuditEvent, 'createdAt'> & { createdAt: Date };

/**
 * The filters of an audit list beyond the project and the range (docs/decisions/0019): userId =
 * the whole identity or account (stored lower-case), deviceName starting with the text in any
 * case, scope, result, country (the code, upper-case as stored).
 */
export function filterOf(q: Pick<AuditListQuery, 'userId' | 'deviceName' | 'scope' | 'result' | 'country'>): Condition[] {
  const where: Condition[] = [];
  if (q.userId) where.push(eq('user_id', q.userId.toLowerCase()));
  if (q.deviceName) where.push({ sql: 'device_key LIKE lower($?)', value: `${escapeLike(q.deviceName)}%` });
  if (q.scope) where.push(eq('scope', q.scope));
  if (q.result) where.push(eq('event_status', q.result));
  if (q.country) where.push(eq('country', q.country));
  return where;
}

/** spec §7 "Audit": one page of a project's events in `range`, and their total (capped). */
export async function listAuditEvents(db: Db, projectId: string, range: DateRange, q: AuditListQuery) {
  const page = await rangedListPage<Row, AuditSortField>(db, {
    table: 'audit_events',
    key: KEY,
    columns: COLUMNS,
    projectId,
    range,
    filters: filterOf(q),
    filterValues: [q.userId?.toLowerCase() ?? null, q.deviceName ?? null, q.scope ?? null, q.result ?? null, q.country ?? null],
    sorts: SORTS,
    query: q,
  });
  const list: AuditEvent[] = page.list.map((r) => ({ ...r, createdAt: new Date(r.createdAt).toISOString() }));
  return { ...page, list };
}
