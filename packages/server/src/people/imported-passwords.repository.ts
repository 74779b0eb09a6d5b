import type { Db } from '../db/db.ts';

// imported_passwords' one owner (issue 37, docs/decisions/0052): a password hash brought in by an
// import, for one sign-in while the person has no passkey; gone with their first passkey, at its
// expiry, and with the person.

/** Stores the hashes of people an import created (by id); `expiresAt` is when the housekeeping deletes them. */
export async function insertImportedPasswords(
  tx: Db,
  projectId: string,
  hashes: ReadonlyArray<{ userId: string; hash: string }>,
  expiresAt: Date,
): Promise<void> {
  if (hashes.length === 0) return;
  await tx.query(
    `INSERT INTO imported_passwords (project_id, user_id, hash, expires_at)
     SELECT $1, h.user_id, h.hash, $4 FROM unnest($2::text[], $3::text[]) AS h(user_id, hash)
     ON CONFLICT (project_id, user_id) DO NOTHING`,
    [projectId, hashes.map((h) => h.userId), hashes.map((h) => h.hash), expiresAt],
  );
}

/**
 * The hash of the person with this address, while it may be used: not expired, and the person holds
 * no passkey that is not revoked (a revoked one does not bring the password back: it was deleted with
 * the first passkey).
 */
export async function usableImportedPassword(
  db: Db,
  p: { projectId: string; email: string; now: Date },
): Promise<{ userId: string; hash: string } | null> {
  const { rows } = await db.query<{ userId: string; hash: string }>(
    `SELECT w.user_id AS "userId", w.hash FROM imported_passwords w
       JOIN project_users u ON u.project_id = w.project_id AND u.id = w.user_id
      WHERE w.project_id = $1 AND u.email = $2 AND u.email_verified AND w.expires_at > $3 AND u.blocked_at IS NULL
        AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.project_id = w.project_id AND d.user_id = w.user_id)`,
    [p.projectId, p.email, p.now],
  );
  return rows[0] ?? null;
}

/** Does the project hold any hash still usable? The code page offers the password field only then (docs/decisions/0052). */
export async function projectHasImportedPasswords(db: Db, projectId: string, now: Date): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM imported_passwords WHERE project_id = $1 AND expires_at > $2 LIMIT 1', [projectId, now]);
  return rows.length > 0;
}

/** The person's hash is gone (their first passkey, or their one password sign-in used it). */
export async function deleteImportedPassword(tx: Db, projectId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM imported_passwords WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
}

/** The housekeeping: hashes past their project's chosen time go, used or not. */
export async function deleteExpiredImportedPasswords(db: Db, now: Date): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'WITH gone AS (DELETE FROM imported_passwords WHERE expires_at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
    [now],
  );
  return rows[0]?.n ?? 0;
}
