import type { DateRange, DeviceIdentity, DeviceListQuery, DeviceSortField } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { eq, escapeLike, type Condition } from '../../db/list-page.ts';
import { CREATED_AT_TEXT, rangedListPage, type RangedSort, type SeekColumn } from '../../db/ranged-list-page.ts';

// The columns every sort ends with: the creation time, then the credential id (total order).
export const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
export const ID: SeekColumn = { column: 'id', text: 'id', cast: 'text' };

/**
 * Each sort is the column order of one index of migration 0014 (project_id, …, created_at, id),
 * read forwards or backwards. ip can be null, so its pages go by offset only.
 */
const SORTS: Record<DeviceSortField, RangedSort> = {
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
};

export const COLUMNS = `id AS "mpinId", user_key AS "userId", name AS "deviceName", ip, country, created_at AS "createdAt",
  last_used_at AS "lastUsedAt", revoked, revoked_at AS "revokedAt"`;

export interface Row extends Omit<DeviceIdentity, 'createdAt' | 'lastUsedAt' | 'revokedAt'> {
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export const iso = (at: Date | string | null): string | null => (at === null ? null : new Date(at).toISOString());

/**
 * The filters of a devices list beyond the project and the creation range (docs/decisions/0019):
 * userId = the whole identity (identities are stored lower-case), deviceName starting with the
 * text in any case, ip starting with the text, revoked. Each is answered by the index whose
 * columns follow the project.
 */
export function filterOf(q: Pick<DeviceListQuery, 'userId' | 'deviceName' | 'ip' | 'revoked'>): Condition[] {
  const where: Condition[] = [];
  if (q.userId) where.push(eq('user_key', q.userId.toLowerCase()));
  if (q.deviceName) where.push({ sql: 'name_key LIKE lower($?)', value: `${escapeLike(q.deviceName)}%` });
  if (q.ip) where.push({ sql: 'ip COLLATE "C" LIKE $?', value: `${escapeLike(q.ip)}%` });
  if (q.revoked !== undefined) where.push(eq('revoked', q.revoked));
  return where;
}

/** spec §7 "Devices": one page of a project's devices registered in `range`, and their total (capped). */
export async function listDevices(db: Db, projectId: string, range: DateRange, q: DeviceListQuery) {
  const page = await rangedListPage<Row, DeviceSortField>(db, {
    table: 'devices',
    key: 'project_id, id',
    columns: COLUMNS,
    projectId,
    range,
    filters: filterOf(q),
    filterValues: [q.userId?.toLowerCase() ?? null, q.deviceName ?? null, q.ip ?? null, q.revoked ?? null],
    sorts: SORTS,
    query: q,
  });
  const list: DeviceIdentity[] = page.list.map((r) => ({
    ...r,
    createdAt: iso(r.createdAt) as string,
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
  }));
  return { ...page, list };
}
