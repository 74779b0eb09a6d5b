import { accountList, normalizePermissions, type Account, type AccountListQuery } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { listTable } from '../../db/list-kit.ts';
import type { Versioned } from '../../http/etag.ts';
import { findServiceTokens, type ServiceTokenRow } from './service-tokens.repository.ts';

interface ProjectAccountRow {
  id: string;
  email: string | null;
  name: string;
  isServiceAccount: boolean;
  active: boolean;
  signedInAt: Date | null;
  /** Bumped by every change of the account (its ETag). */
  version: number;
  /** Its permissions on the project and its global ones. */
  permissions: string[];
}

const COLUMNS = `a.id, a.email, a.name, a.is_service_account AS "isServiceAccount", a.active, a.signed_in_at AS "signedInAt", a.version,
  ARRAY(SELECT p.permission FROM account_permissions p WHERE p.account_id = a.id AND (p.project_id = $1 OR p.permission LIKE 'glb::%')
        ORDER BY p.permission) AS permissions`;

/** The one boundary function of a project's account: its row and its service token as the API shows them. */
function toAccount(row: ProjectAccountRow, token: ServiceTokenRow | undefined): Account {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    active: row.active,
    isServiceAccount: row.isServiceAccount,
    permissions: normalizePermissions(row.permissions),
    invited: !row.isServiceAccount && row.signedInAt === null,
    ...(row.isServiceAccount
      ? {
          token: token
            ? {
                prefix: token.prefix,
                createdAt: token.createdAt.toISOString(),
                expiresAt: token.expiresAt?.toISOString() ?? null,
                lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
                lastUsedIp: token.lastUsedIp,
              }
            : null,
        }
      : {}),
  };
}

/** The accounts of `rows`, each with its service token (one query for all of them). */
async function accountsOf(db: Db, rows: ProjectAccountRow[]): Promise<Account[]> {
  const tokens = await findServiceTokens(
    db,
    rows.filter((a) => a.isServiceAccount).map((a) => a.id),
  );
  return rows.map((row) => toAccount(row, tokens.get(row.id)));
}

/** The accounts with a permission on the project (spec §2 "Accounts list"). */
const OF_PROJECT = 'EXISTS (SELECT 1 FROM account_permissions m WHERE m.account_id = a.id AND m.project_id = $1)';

/**
 * spec §7 GET projects/{project}/accounts on the list kit: the accounts holding a permission on the
 * project; email (a staff account's address or a service account's name, lower-cased in sort_key)
 * starting with the text in any case, active; by email (spec §9: ascending by default), then id.
 */
const accountsTable = listTable(accountList, {
  table: 'accounts',
  key: 'id',
  select: `id, email, name, is_service_account AS "isServiceAccount", active, signed_in_at AS "signedInAt", version`,
  fromRow: (row: Omit<ProjectAccountRow, 'permissions'>) => row,
  filters: { email: 'sort_key', active: 'active' },
  sorts: { email: (d) => `sort_key ${d}, id ${d}` },
  scope: (projectId) => [
    { sql: 'EXISTS (SELECT 1 FROM account_permissions m WHERE m.account_id = accounts.id AND m.project_id = $?)', value: projectId },
  ],
});

/** One page of the project's accounts, each with its permissions on the project and its global ones. */
export async function listProjectAccounts(db: Db, projectId: string, q: AccountListQuery): Promise<{ total: number; list: Account[] }> {
  const page = await accountsTable.page(db, projectId, q);
  const { rows } = await db.query<{ accountId: string; permission: string }>(
    `SELECT account_id AS "accountId", permission FROM account_permissions
      WHERE account_id = ANY($2) AND (project_id = $1 OR permission LIKE 'glb::%') ORDER BY permission`,
    [projectId, page.list.map((a) => a.id)],
  );
  const held = new Map<string, string[]>();
  for (const r of rows) held.set(r.accountId, [...(held.get(r.accountId) ?? []), r.permission]);
  return {
    total: page.total,
    list: await accountsOf(
      db,
      page.list.map((a) => ({ ...a, permissions: held.get(a.id) ?? [] })),
    ),
  };
}

/** One account as the project sees it, or null when it holds nothing on the project. */
export async function findProjectAccount(db: Db, projectId: string, accountId: string): Promise<Versioned<Account> | null> {
  const { rows } = await db.query<ProjectAccountRow>(`SELECT ${COLUMNS} FROM accounts a WHERE a.id = $2 AND ${OF_PROJECT}`, [projectId, accountId]);
  const row = rows[0];
  if (!row) return null;
  const [account] = await accountsOf(db, [row]);
  return { value: account as Account, version: row.version };
}

/**
 * Issue 12: the projects that have no active administrator (an active account holding
 * cst:{project}:*, glb::projects or the global wildcard). Asked before and after an account change,
 * inside its transaction: the change may leave none of them without one that had one. With an
 * active global administrator, no project lacks one and the answer comes from one index probe.
 */
export async function projectsWithoutAdministrator(db: Db): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT p.id FROM projects p
      WHERE NOT EXISTS (SELECT 1 FROM account_permissions g JOIN accounts a ON a.id = g.account_id
                         WHERE a.active AND g.permission IN ('glb::*', 'glb::projects'))
        AND NOT EXISTS (SELECT 1 FROM account_permissions ap JOIN accounts a ON a.id = ap.account_id
                         WHERE a.active AND ap.project_id = p.id AND ap.permission = 'cst:' || p.id || ':*')`,
  );
  return new Set(rows.map((r) => r.id));
}

/** Replaces the account's permissions on the project and its global ones by `permissions`. */
export async function setProjectPermissions(db: Db, accountId: string, projectId: string, permissions: readonly string[]): Promise<void> {
  await db.query(`DELETE FROM account_permissions WHERE account_id = $1 AND (project_id = $2 OR permission LIKE 'glb::%')`, [accountId, projectId]);
  for (const permission of permissions) {
    await db.query(
      `INSERT INTO account_permissions (account_id, permission, project_id) VALUES ($1, $2, $3) ON CONFLICT (account_id, permission) DO NOTHING`,
      [accountId, permission, permission.startsWith('glb::') ? null : projectId],
    );
  }
}

/** Sets the account's status (unchanged when `active` is null) and moves its version on. */
export async function saveAccount(db: Db, accountId: string, active: boolean): Promise<void> {
  await db.query('UPDATE accounts SET active = $2, version = version + 1 WHERE id = $1', [accountId, active]);
}

/** Ends every console session of the account (issue 12: deactivated accounts are signed out at once). */
export async function deleteSessionsOfAccount(db: Db, accountId: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE account_id = $1', [accountId]);
}

/** Locks the project's account list for the change (the last-administrator check cannot race). */
export async function lockProjectAccounts(db: Db, projectId: string): Promise<void> {
  await db.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
}
