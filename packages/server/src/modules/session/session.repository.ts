import type { Language } from '@latchkey/domain';
import { prepared, type Db } from '../../db/db.ts';

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

// Rows come back under SessionRow's field names.
const SESSION = `id_hash AS "idHash", account_id AS "accountId", xsrf_hash AS "xsrfHash", id_token AS "idToken",
  created_at AS "createdAt", last_seen_at AS "lastSeenAt", expires_at AS "expiresAt"`;

export async function insertSession(db: Db, s: SessionRow): Promise<void> {
  await db.query(
    `INSERT INTO sessions (id_hash, account_id, xsrf_hash, id_token, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [s.idHash, s.accountId, s.xsrfHash, s.idToken, s.createdAt, s.lastSeenAt, s.expiresAt],
  );
}

/** A session as a console call finds it: with its account's address, whether it is active, and its permissions. */
export interface SessionOfCall {
  accountId: string;
  xsrfHash: string;
  lastSeenAt: Date;
  expiresAt: Date;
  /** Null when the account is gone. */
  email: string | null;
  active: boolean | null;
  /** The account's permissions, in order. */
  permissions: string[];
}

/**
 * The session, its account and the account's permissions in one statement (every console call
 * starts here, docs/decisions/0055: prepared, a read by key). Null for no such session.
 */
export async function findSessionOfCall(db: Db, idHash: string): Promise<SessionOfCall | null> {
  const { rows } = await db.query<SessionOfCall>(
    prepared(`SELECT s.account_id AS "accountId", s.xsrf_hash AS "xsrfHash", s.last_seen_at AS "lastSeenAt", s.expires_at AS "expiresAt",
            a.email, a.active,
            ARRAY(SELECT p.permission FROM account_permissions p WHERE p.account_id = s.account_id ORDER BY p.permission) AS permissions
       FROM sessions s LEFT JOIN accounts a ON a.id = s.account_id
      WHERE s.id_hash = $1`),
    [idHash],
  );
  return rows[0] ?? null;
}

export async function touchSession(db: Db, idHash: string, at: Date): Promise<void> {
  await db.query('UPDATE sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, at]);
}

/** Deletes the session; answers the deleted row (its id token is the logout hint). */
export async function deleteSession(db: Db, idHash: string): Promise<SessionRow | null> {
  const { rows } = await db.query<SessionRow>(`DELETE FROM sessions WHERE id_hash = $1 RETURNING ${SESSION}`, [idHash]);
  return rows[0] ?? null;
}

export async function deleteExpiredSessions(db: Db, now: Date, idleBefore: Date): Promise<void> {
  await db.query('DELETE FROM sessions WHERE expires_at <= $1 OR last_seen_at <= $2', [now, idleBefore]);
}

/** The console language an account chose (issue 13), null when it chose none. */
export async function findAccountLanguage(db: Db, accountId: string): Promise<Language | null> {
  const { rows } = await db.query<{ language: Language | null }>('SELECT language FROM accounts WHERE id = $1', [accountId]);
  return rows[0]?.language ?? null;
}

export async function updateAccountLanguage(db: Db, accountId: string, language: Language | null): Promise<void> {
  await db.query('UPDATE accounts SET language = $2 WHERE id = $1', [accountId, language]);
}
