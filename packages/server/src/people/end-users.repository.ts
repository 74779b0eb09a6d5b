import { endUserList, type EndUser } from '@latchkey/domain';
import { randomToken } from '../crypto.ts';
import { prepared, type Db } from '../db/db.ts';
import { rangedListTable } from '../db/list-kit.ts';
import { CREATED_AT_TEXT, type SeekColumn } from '../db/ranged-list-page.ts';
import { iso } from '../db/rows.ts';

// project_users' one owner (issue 35): the people who sign in at a project's issuer, as the issuer
// reads them (ProjectUser) and as the management API answers them (the domain's EndUser, the list).

/** How a project's end user is known (spec §3 identityType; docs/decisions/0018). */
export interface UserIdentity {
  type: 'email' | 'alphanumeric';
  /** The email address or the user id, lower-cased. */
  value: string;
}

/** A project's end user: `id` is the stable `sub`; `email` only when the identity is an address. */
export interface ProjectUser {
  id: string;
  email: string | null;
  /** The email address or the user id: what the user typed on page 1, what events name them by. */
  identity: string;
  /** Refused at sign-in until unblocked (issue 24). */
  blocked: boolean;
}

/** Which column holds an identity of this type (migration 0013: exactly one is set). */
const columnOf = (identity: UserIdentity) => (identity.type === 'email' ? 'email' : 'username');

const USER = 'id, email, COALESCE(email, username) AS identity, blocked_at IS NOT NULL AS blocked';
/** A person by id: read at each provider step of a sign-in (prepared, docs/decisions/0055). */
const USER_BY_ID = prepared(`SELECT ${USER} FROM project_users WHERE project_id = $1 AND id = $2`);

/**
 * The project's end user with this verified identity, created on first sign-in; answers its id,
 * the stable `sub` at the project's issuer.
 */
export async function userIdForIdentity(db: Db, p: { projectId: string; identity: UserIdentity; now: Date }): Promise<string> {
  const column = columnOf(p.identity);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO project_users (project_id, id, ${column}, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, ${column}) DO UPDATE SET ${column} = EXCLUDED.${column}, email_verified = true
     RETURNING id`,
    [p.projectId, randomToken(16), p.identity.value, p.now],
  );
  return (rows[0] as { id: string }).id;
}

/** The user with this verified address (an email identity). */
export function userIdForEmail(db: Db, p: { projectId: string; email: string; now: Date }): Promise<string> {
  return userIdForIdentity(db, { projectId: p.projectId, identity: { type: 'email', value: p.email }, now: p.now });
}

export async function findProjectUser(db: Db, projectId: string, id: string): Promise<ProjectUser | null> {
  const { rows } = await db.query<ProjectUser>(USER_BY_ID, [projectId, id]);
  return rows[0] ?? null;
}

/** The fallback sign-ins the person made so far (migration 0038, docs/decisions/0050); 0 for no such person. */
export async function fallbackSignInsOf(db: Db, projectId: string, id: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT fallback_sign_ins AS n FROM project_users WHERE project_id = $1 AND id = $2', [
    projectId,
    id,
  ]);
  return rows[0]?.n ?? 0;
}

/** The user known by this identity in this project, or null. */
export async function findProjectUserByIdentity(db: Db, projectId: string, identity: UserIdentity): Promise<ProjectUser | null> {
  const { rows } = await db.query<ProjectUser>(`SELECT ${USER} FROM project_users WHERE project_id = $1 AND ${columnOf(identity)} = $2`, [
    projectId,
    identity.value,
  ]);
  return rows[0] ?? null;
}

/** The user with this address (an email identity), or null. */
export async function findProjectUserByEmail(db: Db, projectId: string, email: string): Promise<{ id: string; email: string } | null> {
  const { rows } = await db.query<{ id: string; email: string }>('SELECT id, email FROM project_users WHERE project_id = $1 AND email = $2', [
    projectId,
    email,
  ]);
  return rows[0] ?? null;
}

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

/** The project's end user `id`, or null; `forUpdate` locks the row until the transaction ends. */
export async function findEndUser(db: Db, projectId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<EndUser | null> {
  const { rows } = await db.query<EndUserRow>(
    `SELECT ${END_USER_COLUMNS} FROM project_users WHERE project_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [projectId, id],
  );
  return rows[0] ? endUserFromRow(rows[0]) : null;
}

/** Blocks (`at`) or unblocks (null) the user; answers them as they are now. */
export async function setBlocked(tx: Db, projectId: string, id: string, at: Date | null): Promise<EndUser> {
  const { rows } = await tx.query<EndUserRow>(
    `UPDATE project_users SET blocked_at = $3 WHERE project_id = $1 AND id = $2 RETURNING ${END_USER_COLUMNS}`,
    [projectId, id, at],
  );
  return endUserFromRow(rows[0] as EndUserRow);
}

/** Deletes the user; their passkeys and registration codes go with them (foreign keys). */
export async function deleteEndUser(tx: Db, projectId: string, id: string): Promise<void> {
  await tx.query('DELETE FROM project_users WHERE project_id = $1 AND id = $2', [projectId, id]);
}

// Issue 37 "Migration" (docs/decisions/0052): people brought in by an import, and taken out.

/** One person of an import's batch. */
export interface ImportedUserRow {
  email: string;
  verified: boolean;
  name: string | null;
  externalId: string | null;
}

/**
 * Creates the batch's people the project does not have yet (by address): one statement for the
 * batch. A person it has already is left exactly as is, so an import run twice changes nothing.
 * Answers the ids of those created, by address.
 */
export async function insertImportedUsers(tx: Db, projectId: string, people: readonly ImportedUserRow[], now: Date): Promise<Map<string, string>> {
  if (people.length === 0) return new Map();
  const { rows } = await tx.query<{ id: string; email: string }>(
    `INSERT INTO project_users (project_id, id, email, email_verified, display_name, external_id, created_at)
     SELECT $1, u.id, u.email, u.verified, u.name, u.external_id, $7
       FROM unnest($2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[]) AS u(id, email, verified, name, external_id)
     ON CONFLICT (project_id, email) DO NOTHING
     RETURNING id, email`,
    [
      projectId,
      people.map(() => randomToken(16)),
      people.map((p) => p.email),
      people.map((p) => p.verified),
      people.map((p) => p.name),
      people.map((p) => p.externalId),
      now,
    ],
  );
  return new Map(rows.map((r) => [r.email, r.id]));
}

/** A person as the migration export writes them (docs/decisions/0052), without their passkeys. */
export interface ExportedUserRow {
  id: string;
  email: string | null;
  verified: boolean;
  name: string | null;
  externalId: string | null;
  createdAt: Date;
}

/** The project's people in id order, `limit` after `afterId` (null: from the start); the primary key reads them. */
export async function usersAfter(db: Db, projectId: string, afterId: string | null, limit: number): Promise<ExportedUserRow[]> {
  const { rows } = await db.query<ExportedUserRow>(
    `SELECT id, COALESCE(email, username) AS email, email_verified AS verified, display_name AS name, external_id AS "externalId", created_at AS "createdAt"
       FROM project_users WHERE project_id = $1 AND ($2::text IS NULL OR id > $2) ORDER BY id LIMIT $3`,
    [projectId, afterId, limit],
  );
  return rows;
}

/** The project's identity type (spec §3 identityType), or null when there is no such project. */
export async function identityTypeOf(db: Db, projectId: string): Promise<string | null> {
  const { rows } = await db.query<{ type: string | null }>(`SELECT settings->>'identityType' AS type FROM projects WHERE id = $1`, [projectId]);
  return rows[0] ? (rows[0].type ?? 'email') : null;
}

/** What an import brought of the person: their display name and the team's id for them (issue 37). */
export async function profileOf(db: Db, projectId: string, id: string): Promise<{ name: string | null; externalId: string | null }> {
  const { rows } = await db.query<{ name: string | null; externalId: string | null }>(
    'SELECT display_name AS name, external_id AS "externalId" FROM project_users WHERE project_id = $1 AND id = $2',
    [projectId, id],
  );
  return rows[0] ?? { name: null, externalId: null };
}
