import { randomToken } from '../crypto.ts';
import type { Db } from '../db/db.ts';

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

/**
 * The project's end user with this verified identity, created on first sign-in; answers its id,
 * the stable `sub` at the project's issuer.
 */
export async function userIdForIdentity(db: Db, p: { projectId: string; identity: UserIdentity; now: Date }): Promise<string> {
  const column = columnOf(p.identity);
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO project_users (project_id, id, ${column}, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, ${column}) DO UPDATE SET ${column} = EXCLUDED.${column}
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
  const { rows } = await db.query<ProjectUser>(`SELECT ${USER} FROM project_users WHERE project_id = $1 AND id = $2`, [projectId, id]);
  return rows[0] ?? null;
}

/** The user known by this identity in this project, or null. */
export async function findProjectUserByIdentity(db: Db, projectId: string, identity: UserIdentity): Promise<ProjectUser | null> {
  const { rows } = await db.query<ProjectUser>(`SELECT ${USER} FROM project_users WHERE project_id = $1 AND ${columnOf(identity)} = $2`, [
    projectId,
    identity.value,
  ]);
  return rows[0] ?? null;
}
