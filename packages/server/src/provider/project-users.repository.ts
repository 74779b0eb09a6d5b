import { randomToken } from '../crypto.ts';
import type { Db } from '../db/db.ts';

/**
 * The project's end user with this verified address, created on first sign-in; answers its id,
 * the stable `sub` at the project's issuer.
 */
export async function userIdForEmail(db: Db, p: { projectId: string; email: string; now: Date }): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO project_users (project_id, id, email, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (project_id, email) DO UPDATE SET email = EXCLUDED.email
     RETURNING id`,
    [p.projectId, randomToken(16), p.email, p.now],
  );
  return (rows[0] as { id: string }).id;
}

export async function findProjectUser(db: Db, projectId: string, id: string): Promise<{ id: string; email: string } | null> {
  const { rows } = await db.query<{ id: string; email: string }>('SELECT id, email FROM project_users WHERE project_id = $1 AND id = $2', [
    projectId,
    id,
  ]);
  return rows[0] ?? null;
}
