import type { Db } from '../db/db.ts';

export interface LoginCodeRow {
  email: string;
  interactionUid: string;
  codeHash: string;
  expiresAt: Date;
  attempts: number;
  consumedAt: Date | null;
  triesInWindow: number;
  triesWindowStartedAt: Date;
}

interface DbLoginCode {
  email: string;
  interaction_uid: string;
  code_hash: string;
  expires_at: Date;
  attempts: number;
  consumed_at: Date | null;
  tries_in_window: number;
  tries_window_started_at: Date;
}

/**
 * Stores a new code for `email`, replacing any earlier one, unless the address already had
 * `maxRequests` codes since `windowStart` — then nothing changes and the answer is false. One
 * statement, so concurrent requests cannot slip past the limit.
 */
export async function replaceLoginCode(
  db: Db,
  c: { email: string; interactionUid: string; codeHash: string; now: Date; expiresAt: Date; windowStart: Date; maxRequests: number },
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO idp_login_codes AS c
       (email, interaction_uid, code_hash, created_at, expires_at, attempts, consumed_at, window_started_at, requests_in_window)
     VALUES ($1, $2, $3, $4, $5, 0, NULL, $4, 1)
     ON CONFLICT (email) DO UPDATE SET
       interaction_uid = EXCLUDED.interaction_uid,
       code_hash = EXCLUDED.code_hash,
       created_at = EXCLUDED.created_at,
       expires_at = EXCLUDED.expires_at,
       attempts = 0,
       consumed_at = NULL,
       window_started_at = CASE WHEN c.window_started_at <= $6 THEN EXCLUDED.window_started_at ELSE c.window_started_at END,
       requests_in_window = CASE WHEN c.window_started_at <= $6 THEN 1 ELSE c.requests_in_window + 1 END
     WHERE c.window_started_at <= $6 OR c.requests_in_window < $7
     RETURNING email`,
    [c.email, c.interactionUid, c.codeHash, c.now, c.expiresAt, c.windowStart, c.maxRequests],
  );
  return rows.length > 0;
}

export async function findLoginCodeByInteraction(db: Db, interactionUid: string): Promise<LoginCodeRow | null> {
  const { rows } = await db.query<DbLoginCode>(
    `SELECT email, interaction_uid, code_hash, expires_at, attempts, consumed_at, tries_in_window, tries_window_started_at
       FROM idp_login_codes WHERE interaction_uid = $1 ORDER BY created_at DESC LIMIT 1`,
    [interactionUid],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    email: row.email,
    interactionUid: row.interaction_uid,
    codeHash: row.code_hash,
    expiresAt: row.expires_at,
    attempts: row.attempts,
    consumedAt: row.consumed_at,
    triesInWindow: row.tries_in_window,
    triesWindowStartedAt: row.tries_window_started_at,
  };
}

/**
 * Counts one try at this very code (same hash, still live, under the per-code limit) and at the
 * address (under `maxTries` since `windowStart`; a window older than that starts again at `now`).
 * Answers the code's new try count, or null when either limit is reached.
 */
export async function countAttempt(
  db: Db,
  c: { email: string; codeHash: string; maxAttempts: number; now: Date; windowStart: Date; maxTries: number },
): Promise<number | null> {
  const { rows } = await db.query<{ attempts: number }>(
    `UPDATE idp_login_codes SET
        attempts = attempts + 1,
        tries_window_started_at = CASE WHEN tries_window_started_at <= $5 THEN $4 ELSE tries_window_started_at END,
        tries_in_window = CASE WHEN tries_window_started_at <= $5 THEN 1 ELSE tries_in_window + 1 END
      WHERE email = $1 AND code_hash = $2 AND consumed_at IS NULL AND attempts < $3
        AND (tries_window_started_at <= $5 OR tries_in_window < $6)
      RETURNING attempts`,
    [c.email, c.codeHash, c.maxAttempts, c.now, c.windowStart, c.maxTries],
  );
  return rows[0]?.attempts ?? null;
}

/** Marks the code used; false when another request used it first. */
export async function consumeLoginCode(db: Db, email: string, codeHash: string, at: Date): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE idp_login_codes SET consumed_at = $3 WHERE email = $1 AND code_hash = $2 AND consumed_at IS NULL RETURNING email`,
    [email, codeHash, at],
  );
  return rows.length > 0;
}

export async function deleteStaleLoginCodes(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM idp_login_codes WHERE expires_at <= $1 AND window_started_at <= $1', [before]);
}
