import { prepared, type Db } from '../db/db.ts';

export interface LoginCodeRow {
  interactionRef: string;
  email: string;
  codeHash: string;
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
}

// Rows come back under LoginCodeRow's field names.
const LOGIN_CODE = `interaction_ref AS "interactionRef", email, code_hash AS "codeHash", expires_at AS "expiresAt", attempts, consumed_at AS "consumedAt"`;

/** The interaction's code, replacing the one it had (a new code, or a different address). */
export async function replaceLoginCode(
  db: Db,
  c: { issuer: string; interactionRef: string; email: string; codeHash: string; now: Date; expiresAt: Date },
): Promise<void> {
  await db.query(
    prepared(
      `INSERT INTO login_codes (issuer, interaction_ref, email, code_hash, created_at, expires_at, attempts, consumed_at)
     VALUES ($6, $1, $2, $3, $4, $5, 0, NULL)
     ON CONFLICT (issuer, interaction_ref) DO UPDATE SET email = EXCLUDED.email, code_hash = EXCLUDED.code_hash,
       created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, attempts = 0, consumed_at = NULL`,
    ),
    [c.interactionRef, c.email, c.codeHash, c.now, c.expiresAt, c.issuer],
  );
}

export async function findLoginCode(db: Db, issuer: string, interactionRef: string): Promise<LoginCodeRow | null> {
  const { rows } = await db.query<LoginCodeRow>(prepared(`SELECT ${LOGIN_CODE} FROM login_codes WHERE issuer = $2 AND interaction_ref = $1`), [
    interactionRef,
    issuer,
  ]);
  return rows[0] ?? null;
}

/**
 * Counts one try at this very code (same hash, unused, under `maxAttempts`); answers the new try
 * count, or null when the code has no try left (or was replaced or used meanwhile).
 */
export async function countAttempt(db: Db, issuer: string, interactionRef: string, codeHash: string, maxAttempts: number): Promise<number | null> {
  const { rows } = await db.query<{ attempts: number }>(
    prepared(
      `UPDATE login_codes SET attempts = attempts + 1
      WHERE issuer = $4 AND interaction_ref = $1 AND code_hash = $2 AND consumed_at IS NULL AND attempts < $3
      RETURNING attempts`,
    ),
    [interactionRef, codeHash, maxAttempts, issuer],
  );
  return rows[0]?.attempts ?? null;
}

/** Marks the code used; false when another request used it first. */
export async function consumeLoginCode(db: Db, issuer: string, interactionRef: string, codeHash: string, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    prepared(
      `UPDATE login_codes SET consumed_at = $3 WHERE issuer = $4 AND interaction_ref = $1 AND code_hash = $2 AND consumed_at IS NULL
     RETURNING interaction_ref`,
    ),
    [interactionRef, codeHash, at, issuer],
  );
  return rows.length > 0;
}

/** Expired codes (a project's expired links and verification requests: people/identity-verifications.repository.ts). */
export async function deleteStaleLoginCodes(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM login_codes WHERE expires_at <= $1', [before]);
}

/** The codes mailed to `email` at `issuer` (an erased person's). */
export async function deleteLoginCodesOf(tx: Db, issuer: string, email: string): Promise<void> {
  await tx.query('DELETE FROM login_codes WHERE issuer = $1 AND email = $2', [issuer, email]);
}
