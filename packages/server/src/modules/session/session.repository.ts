import type { Db } from '../../db/db.ts';

export interface SessionRow {
  idHash: string;
  accountId: string;
  /** HMAC of the XSRF token (the token itself is only in the browser). */
  xsrfHash: string;
  /** The ID token, sealed (the logout hint). */
  idToken: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface DbSession {
  id_hash: string;
  account_id: string;
  xsrf_hash: string;
  id_token: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

function toSession(row: DbSession): SessionRow {
  return {
    idHash: row.id_hash,
    accountId: row.account_id,
    xsrfHash: row.xsrf_hash,
    idToken: row.id_token,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function insertSession(db: Db, s: SessionRow): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id_hash, account_id, xsrf_hash, id_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.idHash, s.accountId, s.xsrfHash, s.idToken, s.createdAt, s.lastSeenAt, s.expiresAt],
  );
}

export async function findSession(db: Db, idHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query<DbSession>(
    'SELECT id_hash, account_id, xsrf_hash, id_token, created_at, last_seen_at, expires_at FROM sessions WHERE id_hash = $1',
    [idHash],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

export async function touchSession(db: Db, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, at]);
}

/** Deletes the session; answers the deleted row (its id token is the logout hint). */
export async function deleteSession(db: Db, idHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query<DbSession>(
    'DELETE FROM sessions WHERE id_hash = $1 RETURNING id_hash, account_id, xsrf_hash, id_token, created_at, last_seen_at, expires_at',
    [idHash],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

export async function deleteExpiredSessions(db: Db, now: Date, idleBefore: Date): Promise<void> {
  await db.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleBefore]);
}
