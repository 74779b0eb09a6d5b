import type { Db } from '../db/db.ts';

/** A user's live QuickCode (migration 0012): only its keyed hash. */
export interface RegistrationCode {
  projectId: string;
  userId: string;
  codeHash: string;
  /** The device (mpinId) that issued it. */
  issuedBy: string;
  createdAt: Date;
  expiresAt: Date;
  attempts: number;
  usedAt: Date | null;
}

interface Row {
  project_id: string;
  user_id: string;
  code_hash: string;
  issued_by: string;
  created_at: Date;
  expires_at: Date;
  attempts: number;
  used_at: Date | null;
}

const toCode = (row: Row): RegistrationCode => ({
  projectId: row.project_id,
  userId: row.user_id,
  codeHash: row.code_hash,
  issuedBy: row.issued_by,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
  attempts: Number(row.attempts),
  usedAt: row.used_at ? new Date(row.used_at) : null,
});

/** Stores the user's new code, replacing any earlier one (one live code per user). */
export async function replaceRegistrationCode(
  tx: Db,
  c: Pick<RegistrationCode, 'projectId' | 'userId' | 'codeHash' | 'issuedBy' | 'createdAt' | 'expiresAt'>,
): Promise<void> {
  await tx.query(
    `INSERT INTO registration_codes (project_id, user_id, code_hash, issued_by, created_at, expires_at, attempts, used_at)
     VALUES ($1, $2, $3, $4, $5, $6, 0, NULL)
     ON CONFLICT (project_id, user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, issued_by = EXCLUDED.issued_by,
       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, attempts = 0, used_at = NULL`,
    [c.projectId, c.userId, c.codeHash, c.issuedBy, c.createdAt, c.expiresAt],
  );
}

export async function findRegistrationCode(db: Db, projectId: string, userId: string): Promise<RegistrationCode | null> {
  const { rows } = await db.query<Row>(
    `SELECT project_id, user_id, code_hash, issued_by, created_at, expires_at, attempts, used_at
       FROM registration_codes WHERE project_id = $1 AND user_id = $2`,
    [projectId, userId],
  );
  return rows[0] ? toCode(rows[0]) : null;
}

/**
 * Counts one try at the code `codeHash` names (the row may have been replaced meanwhile): answers
 * the tries made so far, or null when none is left, it was used or it was replaced.
 */
export async function countRegistrationCodeTry(
  db: Db,
  p: { projectId: string; userId: string; codeHash: string; max: number },
): Promise<number | null> {
  const { rows } = await db.query<{ attempts: number }>(
    `UPDATE registration_codes SET attempts = attempts + 1
      WHERE project_id = $1 AND user_id = $2 AND code_hash = $3 AND used_at IS NULL AND attempts < $4 RETURNING attempts`,
    [p.projectId, p.userId, p.codeHash, p.max],
  );
  return rows[0] ? Number(rows[0].attempts) : null;
}

/** Marks the code used, once: of two racing uses only one gets true. */
export async function useRegistrationCode(db: Db, p: { projectId: string; userId: string; codeHash: string; now: Date }): Promise<boolean> {
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE registration_codes SET used_at = $4
      WHERE project_id = $1 AND user_id = $2 AND code_hash = $3 AND used_at IS NULL AND expires_at > $4 RETURNING user_id`,
    [p.projectId, p.userId, p.codeHash, p.now],
  );
  return rows.length === 1;
}

export async function deleteEndedRegistrationCodes(db: Db, now: Date): Promise<void> {
  await db.query('DELETE FROM registration_codes WHERE expires_at <= $1 OR used_at IS NOT NULL', [now]);
}

/** A revoked device's QuickCodes die with it (docs/decisions/0017). */
export async function deleteCodesIssuedBy(tx: Db, projectId: string, deviceId: string): Promise<void> {
  await tx.query('DELETE FROM registration_codes WHERE project_id = $1 AND issued_by = $2', [projectId, deviceId]);
}

/** Whatever the user's registration codes were (a blocked user adds no passkey). */
export async function deleteRegistrationCodesOf(tx: Db, projectId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM registration_codes WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
}
