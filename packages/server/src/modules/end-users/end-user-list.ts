import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { rangedListService } from '../../http/list-service.ts';
import { endUsersTable } from '../../people/end-users.repository.ts';

// The users list (issue 24, docs/decisions/0038): the table's declaration lives with project_users'
// owner (people/end-users.repository.ts); this is its service, export included.

/** The export's columns: the list's, in its order. */
export const END_USER_CSV = ['createdAt', 'identity', 'identityType', 'lastSignInAt', 'activeDevices', 'status', 'blockedAt', 'id'] as const;

export const createEndUserListService = (deps: { db: Db; clock: Clock }) =>
  rangedListService(endUsersTable, deps, { name: 'users', csv: END_USER_CSV });
export type EndUserListService = ReturnType<typeof createEndUserListService>;
