import type { Db } from '../../db/db.ts';

export interface SessionRow {
  idHash: string;
  accountId: string;
  xsrfToken: string;
  idToken: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

interface DbSession {
  id_hash: string;
  account_id: string;
  xsrf_token: string;
  id_token: string | null;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

function toSession(row: DbSession): SessionRow {
  return {
    idHash: row.id_hash,
    accountId: row.account_id,
    xsrfToken: row.xsrf_token,
    idToken: row.id_token,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
  };
}

export async function insertSession(db: Db, s: SessionRow): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id_hash, account_id, xsrf_token, id_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.idHash, s.accountId, s.xsrfToken, s.idToken, s.createdAt, s.lastSeenAt, s.expiresAt],
  );
}

export async function findSession(db: Db, idHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query<DbSession>(
    'SELECT id_hash, account_id, xsrf_token, id_token, created_at, last_seen_at, expires_at FROM sessions WHERE id_hash = $1',
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
    'DELETE FROM sessions WHERE id_hash = $1 RETURNING id_hash, account_id, xsrf_token, id_token, created_at, last_seen_at, expires_at',
    [idHash],
  );
  return rows[0] ? toSession(rows[0]) : null;
}

export async function deleteExpiredSessions(db: Db, now: Date, idleBefore: Date): Promise<void> {
  await db.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleBefore]);
}

export interface LoginAttemptRow {
  state: string;
  codeVerifier: string;
  nonce: string;
  redirectUrl: string;
  nextPath: string | null;
  browserBinding: string;
  createdAt: Date;
}

interface DbLoginAttempt {
  state: string;
  code_verifier: string;
  nonce: string;
  redirect_url: string;
  next_path: string | null;
  browser_binding: string;
  created_at: Date;
}

export async function insertLoginAttempt(db: Db, a: LoginAttemptRow): Promise<void> {
  await db.query(
    `INSERT INTO login_attempts (state, code_verifier, nonce, redirect_url, next_path, browser_binding, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [a.state, a.codeVerifier, a.nonce, a.redirectUrl, a.nextPath, a.browserBinding, a.createdAt],
  );
}

/**
 * Takes the attempt out (single use) when state, browser binding and age all match; a replayed or
 * foreign callback finds nothing.
 */
export async function consumeLoginAttempt(
  db: Db,
  state: string,
  browserBinding: string,
  createdAfter: Date,
): Promise<LoginAttemptRow | null> {
  const { rows } = await db.query<DbLoginAttempt>(
    `DELETE FROM login_attempts WHERE state = $1 AND browser_binding = $2 AND created_at > $3
     RETURNING state, code_verifier, nonce, redirect_url, next_path, browser_binding, created_at`,
    [state, browserBinding, createdAfter],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    state: row.state,
    codeVerifier: row.code_verifier,
    nonce: row.nonce,
    redirectUrl: row.redirect_url,
    nextPath: row.next_path,
    browserBinding: row.browser_binding,
    createdAt: row.created_at,
  };
}

export async function deleteLoginAttemptsBefore(db: Db, before: Date): Promise<void> {
  await db.query('DELETE FROM login_attempts WHERE created_at <= $1', [before]);
}
