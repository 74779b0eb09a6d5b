import { projectOfPermission } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface AccountRow {
  id: string;
  email: string | null;
  name: string;
  isServiceAccount: boolean;
  active: boolean;
  createdAt: Date;
}

interface DbAccount {
  id: string;
  email: string | null;
  name: string;
  is_service_account: boolean;
  active: boolean;
  created_at: Date;
}

const COLUMNS = 'id, email, name, is_service_account, active, created_at';

function toAccount(row: DbAccount): AccountRow {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    isServiceAccount: row.is_service_account,
    active: row.active,
    createdAt: row.created_at,
  };
}

export async function findAccountById(db: Db, id: string): Promise<AccountRow | null> {
  const { rows } = await db.query<DbAccount>(`SELECT ${COLUMNS} FROM accounts WHERE id = $1`, [id]);
  return rows[0] ? toAccount(rows[0]) : null;
}

/** `email` must already be lower-cased (emails are stored lower-cased). */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | null> {
  const { rows } = await db.query<DbAccount>(`SELECT ${COLUMNS} FROM accounts WHERE email = $1`, [email]);
  return rows[0] ? toAccount(rows[0]) : null;
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
}

export async function insertAccount(db: Db, account: NewAccount): Promise<AccountRow> {
  const { rows } = await db.query<DbAccount>(
    `INSERT INTO accounts (id, email, name, is_service_account, active, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [
      account.id,
      account.email,
      account.name ?? '',
      account.isServiceAccount ?? false,
      account.active ?? true,
      account.createdAt,
    ],
  );
  return toAccount(rows[0] as DbAccount);
}

export async function listPermissions(db: Db, accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ permission: string }>(
    'SELECT permission FROM account_permissions WHERE account_id = $1 ORDER BY permission',
    [accountId],
  );
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
  await tx.query('SELECT pg_advisory_xact_lock($1)', [7_331_002]);
}
