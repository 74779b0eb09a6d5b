import type { Db } from '../../db/db.ts';

export interface ServiceTokenRow {
  accountId: string;
  prefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  lastUsedIp: string | null;
}

const COLUMNS = `account_id AS "accountId", prefix, created_at AS "createdAt", expires_at AS "expiresAt",
                 last_used_at AS "lastUsedAt", last_used_ip AS "lastUsedIp"`;

/** A service account's one token: stored by its keyed hash; a new one replaces the old (rotation). */
export async function replaceServiceToken(
  db: Db,
  t: { accountId: string; tokenHash: string; prefix: string; createdAt: Date; expiresAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO service_account_tokens (account_id, token_hash, prefix, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id) DO UPDATE SET token_hash = $2, prefix = $3, created_at = $4, expires_at = $5, last_used_at = NULL, last_used_ip = NULL`,
    [t.accountId, t.tokenHash, t.prefix, t.createdAt, t.expiresAt],
  );
}

export async function deleteServiceToken(db: Db, accountId: string): Promise<boolean> {
  const { rows } = await db.query('DELETE FROM service_account_tokens WHERE account_id = $1 RETURNING account_id', [accountId]);
  return rows.length > 0;
}

export async function findServiceTokenByHash(db: Db, tokenHash: string): Promise<ServiceTokenRow | null> {
  const { rows } = await db.query<ServiceTokenRow>(`SELECT ${COLUMNS} FROM service_account_tokens WHERE token_hash = $1`, [tokenHash]);
  return rows[0] ?? null;
}

export async function findServiceTokens(db: Db, accountIds: readonly string[]): Promise<Map<string, ServiceTokenRow>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await db.query<ServiceTokenRow>(`SELECT ${COLUMNS} FROM service_account_tokens WHERE account_id = ANY($1)`, [accountIds]);
  return new Map(rows.map((r) => [r.accountId, r]));
}

/** Notes a use of the token (when, from where). */
export async function touchServiceToken(db: Db, accountId: string, at: Date, ip: string | null): Promise<void> {
  await db.query('UPDATE service_account_tokens SET last_used_at = $2, last_used_ip = $3 WHERE account_id = $1', [accountId, at, ip]);
}
