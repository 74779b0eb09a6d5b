import { endUserList, type EndUser } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { rangedListTable } from '../../db/list-kit.ts';
import { CREATED_AT_TEXT, type SeekColumn } from '../../db/ranged-list-page.ts';
import { iso } from '../../db/rows.ts';
import { rangedListService } from '../../http/list-service.ts';

// The users list (issue 24, docs/decisions/0038) on the list kit: the domain's declaration
// (endUserList) read from project_users (migration 0030).

const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
const ID: SeekColumn = { column: 'id', text: 'id', cast: 'text' };

/**
 * A user as the domain's EndUser: their active passkeys are counted for the rows answered only
 * (devices_user_idx), never kept as a counter a writer could miss.
 */
export const END_USER_COLUMNS = `id, identity_key AS identity, CASE WHEN email IS NOT NULL THEN 'email' ELSE 'alphanumeric' END AS "identityType",
  created_at AS "createdAt", last_sign_in_at AS "lastSignInAt", status, blocked_at AS "blockedAt",
  (SELECT count(*)::int FROM devices d WHERE d.project_id = project_users.project_id AND d.user_id = project_users.id AND NOT d.revoked) AS "activeDevices"`;

export interface EndUserRow extends Omit<EndUser, 'createdAt' | 'lastSignInAt' | 'blockedAt'> {
  createdAt: Date;
  lastSignInAt: Date | null;
  blockedAt: Date | null;
}

export const endUserFromRow = (r: EndUserRow): EndUser => ({
  ...r,
  createdAt: iso(r.createdAt),
  lastSignInAt: r.lastSignInAt && iso(r.lastSignInAt),
  blockedAt: r.blockedAt && iso(r.blockedAt),
});

/** Each sort is the column order of one index of migration 0030, read forwards or backwards; lastSignInAt can be null, so its pages go by offset. */
export const endUsersTable = rangedListTable(endUserList, {
  table: 'project_users',
  key: 'project_id, id',
  select: END_USER_COLUMNS,
  fromRow: endUserFromRow,
  filters: { identity: 'identity_key', status: 'status' },
  sorts: {
    createdAt: { columns: [CREATED, ID], reads: 'project_id, id, created_at', seekable: true },
    identity: {
      columns: [{ column: 'identity_key', text: 'identity_key', cast: 'text' }, CREATED, ID],
      reads: 'project_id, id, identity_key, created_at',
      seekable: true,
    },
    lastSignInAt: {
      columns: [{ column: 'last_sign_in_at', text: 'last_sign_in_at::text', cast: 'timestamptz' }, CREATED, ID],
      reads: 'project_id, id, last_sign_in_at, created_at',
      seekable: false,
    },
  },
});

/** The export's columns: the list's, in its order. */
export const END_USER_CSV = ['createdAt', 'identity', 'identityType', 'lastSignInAt', 'activeDevices', 'status', 'blockedAt', 'id'] as const;

export const createEndUserListService = (deps: { db: Db; clock: Clock }) =>
  rangedListService(endUsersTable, deps, { name: 'users', csv: END_USER_CSV });
export type EndUserListService = ReturnType<typeof createEndUserListService>;
