import { projectOfPermission } from '@latchkey/domain';
import { advisoryLockQuery } from '../../db/advisory-locks.ts';
import type { Db } from '../../db/db.ts';

export interface AccountRow {
  id: string;
  email: string | null;
  name: string;
  isServiceAccount: boolean;
  active: boolean;
  createdAt: Date;
}

// Rows come back under the field names of AccountRow.
const COLUMNS = 'id, email, name, is_service_account AS "isServiceAccount", active, created_at AS "createdAt"';

export async function findAccountById(db: Db, id: string): Promise<AccountRow | null> {
  const { rows } = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

/** `email` must already be lower-cased (emails are stored lower-cased). */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | null> {
  const { rows } = await db.query<AccountRow>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1`, [email]);
  return rows[0] ?? null;
}

export async function anyAccountExists(db: Db): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM accounts LIMIT 1');
  return rows.length > 0;
}

export interface NewAccount {
  id: string;
  email: string | null;
  name?: string;
  isServiceAccount?: boolean;
  active?: boolean;
  createdAt: Date;
  /** Added by an administrator before it ever signed in (issue 12): it has not signed in yet. */
  invited?: boolean;
}

export async function insertAccount(db: Db, account: NewAccount): Promise<AccountRow> {
  const signedIn = !account.isServiceAccount && !account.invited;
  const { rows } = await db.query<AccountRow>(
    `INSERT INTO accounts (id, email, name, is_service_account, active, created_at, signed_in_at, sort_key)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${COLUMNS}`,
    [
      account.id,
      account.email,
      account.name ?? '',
      account.isServiceAccount ?? false,
      account.active ?? true,
      account.createdAt,
      signedIn ? account.createdAt : null,
      (account.email ?? account.name ?? '').toLowerCase(),
    ],
  );
  return rows[0] as AccountRow;
}

/** The first sign-in of an invited account (issue 12): from now on it is no longer "invited". */
export async function markSignedIn(db: Db, accountId: string, at: Date): Promise<void> {
  await db.query('UPDATE accounts SET signed_in_at = $2 WHERE id = $1 AND signed_in_at IS NULL', [accountId, at]);
}

export async function listPermissions(db: Db, accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ permission: string }>('SELECT permission FROM account_permissions WHERE account_id = $1 ORDER BY permission', [
    accountId,
  ]);
  return rows.map((r) => r.permission);
}

/** Adds permissions (already held ones are kept once); cst:{project}:… rows carry their project id. */
export async function grantPermissions(db: Db, accountId: string, permissions: readonly string[]): Promise<void> {
  for (const permission of permissions) {
    await db.query(
      `INSERT INTO account_permissions (account_id, permission, project_id) VALUES ($1, $2, $3)
       ON CONFLICT (account_id, permission) DO NOTHING`,
      [accountId, permission, projectOfPermission(permission)],
    );
  }
}

/**
 * Serialises account creation across requests and instances for the rest of the transaction, so
 * "the first account becomes the owner" cannot happen twice.
 */
export async function lockAccountCreation(tx: Db): Promise<void> {
  await tx.query(...advisoryLockQuery('accountCreation'));
}

/** Locks an account's row until the transaction ends (per-account quotas counted without a race). */
export async function lockAccount(tx: Db, accountId: string): Promise<void> {
  await tx.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
}
