import type { ApplicationListQuery, PlatformCode } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface ApplicationRecord {
  id: string;
  projectId: string;
  name: string;
  platformCode: PlatformCode;
  enabled: boolean;
  logoUrl: string;
  url: string;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

interface DbApplication {
  id: string;
  project_id: string;
  name: string;
  platform_code: PlatformCode;
  enabled: boolean;
  logo_url: string;
  url: string;
  created_at: Date;
  updated_at: Date;
  version: number;
}

const COLUMNS = 'id, project_id, name, platform_code, enabled, logo_url, url, created_at, updated_at, version';

function toRecord(row: DbApplication): ApplicationRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    platformCode: row.platform_code,
    enabled: row.enabled,
    logoUrl: row.logo_url,
    url: row.url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** `forUpdate` locks the row until the transaction ends (read-check-write without lost updates). */
export async function findApplication(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<ApplicationRecord | null> {
  const { rows } = await db.query<DbApplication>(
    `SELECT ${COLUMNS} FROM applications WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The project an application belongs to (it never moves), or null when there is no such application. */
export async function findProjectOfApplication(db: Db, id: string): Promise<string | null> {
  const { rows } = await db.query<{ project_id: string }>('SELECT project_id FROM applications WHERE id = $1', [id]);
  return rows[0]?.project_id ?? null;
}

/**
 * Inside a write's transaction: whether the project is enabled, or null when it does not exist. The
 * shared row lock keeps the project from being closed until the write commits (closing takes
 * FOR UPDATE), and lets writes to other applications of the project run meanwhile.
 */
export async function lockProjectForAppWrite(tx: Db, projectId: string): Promise<{ enabled: boolean } | null> {
  const { rows } = await tx.query<{ enabled: boolean }>('SELECT enabled FROM projects WHERE id = $1 FOR SHARE', [projectId]);
  return rows[0] ?? null;
}

export async function insertApplication(
  db: Db,
  a: { id: string; projectId: string; name: string; platformCode: PlatformCode; url: string; now: Date },
): Promise<ApplicationRecord> {
  const { rows } = await db.query<DbApplication>(
    `INSERT INTO applications (id, project_id, name, platform_code, enabled, logo_url, url, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, true, '', $5, $6, $6, 1) RETURNING ${COLUMNS}`,
    [a.id, a.projectId, a.name, a.platformCode, a.url, a.now],
  );
  return toRecord(rows[0] as DbApplication);
}

/** Writes the new state and bumps the version (the ETag). */
export async function saveApplication(
  db: Db,
  a: { id: string; name: string; logoUrl: string; enabled: boolean; now: Date },
): Promise<ApplicationRecord> {
  const { rows } = await db.query<DbApplication>(
    `UPDATE applications SET name = $2, logo_url = $3, enabled = $4, version = version + 1, updated_at = $5
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [a.id, a.name, a.logoUrl, a.enabled, a.now],
  );
  return toRecord(rows[0] as DbApplication);
}

// The sort keys of each sort field. Names sort case-insensitively (name_key = lower(name), a stored
// column). Ties are broken by name, then id, in the same direction, so the whole key is the column
// order of one index (migrations 0002, 0003) read forwards or backwards, and the order is total:
// paging never repeats or skips a row.
const ORDER_BY: Record<ApplicationListQuery['sort'], (direction: 'ASC' | 'DESC') => string> = {
  name: (d) => `name_key ${d}, id ${d}`,
  platformCode: (d) => `platform_code ${d}, name_key ${d}, id ${d}`,
  enabled: (d) => `enabled ${d}, name_key ${d}, id ${d}`,
  createdAt: (d) => `created_at ${d}, id ${d}`,
};

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export interface ApplicationPage {
  total: number;
  rows: ApplicationRecord[];
}

/** The two statements of a list call, exactly as run (the bench EXPLAINs them). */
export function listApplicationsSql(
  projectId: string,
  q: ApplicationListQuery,
): { countSql: string; countParams: unknown[]; pageSql: string; pageParams: unknown[] } {
  const where = ['project_id = $1'];
  const params: unknown[] = [projectId];
  if (q.enabled !== undefined) {
    params.push(q.enabled);
    where.push(`enabled = $${params.length}`);
  }
  if (q.platformCode !== undefined) {
    params.push(q.platformCode);
    where.push(`platform_code = $${params.length}`);
  }
  // Without a name filter the total is the sum of the kept counters (migration 0003), one to a few rows.
  const countSql = q.name
    ? null
    : `SELECT coalesce(sum(n), 0)::int AS total FROM application_counts WHERE ${where.join(' AND ')}`;
  const countParams = [...params];
  if (q.name) {
    params.push(`%${escapeLike(q.name)}%`);
    where.push(`name_key LIKE lower($${params.length})`);
  }
  const filter = where.join(' AND ');
  const orderBy = ORDER_BY[q.sort](q.direction === 'desc' ? 'DESC' : 'ASC');
  return {
    countSql: countSql ?? `SELECT count(*)::int AS total FROM applications WHERE ${filter}`,
    countParams: countSql ? countParams : params,
    // The page's ids first, from the index alone (an index-only scan skips `offset` entries without
    // reading their rows), then the rows of those ids: a deep page costs index entries, not rows.
    pageSql:
      `SELECT ${COLUMNS} FROM (SELECT id FROM applications WHERE ${filter} ORDER BY ${orderBy} ` +
      `LIMIT $${params.length + 1} OFFSET $${params.length + 2}) AS page JOIN applications USING (id) ORDER BY ${orderBy}`,
    pageParams: [...params, q.limit, q.offset],
  };
}

/**
 * One page of a project's applications and the number matching the filters (spec §7). The name
 * filter is "contains", case-insensitive: `name_key LIKE lower('%…%')`, which the trigram index
 * answers when the term is selective and the (project_id, name_key, id) index otherwise; `%`,
 * `_` and a backslash in the term match themselves.
 */
export async function listApplications(db: Db, projectId: string, q: ApplicationListQuery): Promise<ApplicationPage> {
  const { countSql, countParams, pageSql, pageParams } = listApplicationsSql(projectId, q);
  // Two statements, not count(*) OVER (): the window would read every matching row to page ten.
  const [count, page] = await Promise.all([
    db.query<{ total: number }>(countSql, countParams),
    db.query<DbApplication>(pageSql, pageParams),
  ]);
  return { total: count.rows[0]?.total ?? 0, rows: page.rows.map(toRecord) };
}

export interface KeysRecord {
  applicationId: string;
  clientId: string;
  redirectUris: string[];
  createdAt: Date;
  rotatedAt: Date | null;
}

interface DbKeys {
  application_id: string;
  client_id: string;
  redirect_uris: string[];
  created_at: Date;
  rotated_at: Date | null;
}

// The secret's hash is never read back into the console's answers: only verification selects it.
const KEY_COLUMNS = 'application_id, client_id, redirect_uris, created_at, rotated_at';

function toKeys(row: DbKeys): KeysRecord {
  return {
    applicationId: row.application_id,
    clientId: row.client_id,
    redirectUris: row.redirect_uris,
    createdAt: row.created_at,
    rotatedAt: row.rotated_at,
  };
}

export async function findKeys(db: Db, applicationId: string): Promise<KeysRecord | null> {
  const { rows } = await db.query<DbKeys>(`SELECT ${KEY_COLUMNS} FROM application_keys WHERE application_id = $1`, [applicationId]);
  return rows[0] ? toKeys(rows[0]) : null;
}

export async function insertKeys(
  db: Db,
  k: { applicationId: string; clientId: string; clientSecretHash: string; redirectUris: string[]; now: Date },
): Promise<KeysRecord> {
  const { rows } = await db.query<DbKeys>(
    `INSERT INTO application_keys (application_id, client_id, client_secret_hash, redirect_uris, created_at)
     VALUES ($1, $2, $3, $4::text[], $5) RETURNING ${KEY_COLUMNS}`,
    [k.applicationId, k.clientId, k.clientSecretHash, k.redirectUris, k.now],
  );
  return toKeys(rows[0] as DbKeys);
}

export async function saveRedirectUris(db: Db, applicationId: string, redirectUris: string[]): Promise<KeysRecord> {
  const { rows } = await db.query<DbKeys>(
    `UPDATE application_keys SET redirect_uris = $2::text[] WHERE application_id = $1 RETURNING ${KEY_COLUMNS}`,
    [applicationId, redirectUris],
  );
  return toKeys(rows[0] as DbKeys);
}

/** Replaces the secret (the old one stops matching with this commit) and the redirect URIs. */
export async function rotateSecret(
  db: Db,
  k: { applicationId: string; clientSecretHash: string; redirectUris: string[]; now: Date },
): Promise<KeysRecord> {
  const { rows } = await db.query<DbKeys>(
    `UPDATE application_keys SET client_secret_hash = $2, redirect_uris = $3::text[], rotated_at = $4
     WHERE application_id = $1 RETURNING ${KEY_COLUMNS}`,
    [k.applicationId, k.clientSecretHash, k.redirectUris, k.now],
  );
  return toKeys(rows[0] as DbKeys);
}

export interface ClientRecord {
  clientSecretHash: string;
  redirectUris: string[];
  applicationEnabled: boolean;
  projectEnabled: boolean;
}

/** What the provider needs to know about a client id: its secret's hash, redirect URIs and whether it may sign anyone in. */
export async function findClient(db: Db, clientId: string): Promise<ClientRecord | null> {
  const { rows } = await db.query<{ client_secret_hash: string; redirect_uris: string[]; app_enabled: boolean; project_enabled: boolean }>(
    `SELECT k.client_secret_hash, k.redirect_uris, a.enabled AS app_enabled, p.enabled AS project_enabled
       FROM application_keys k
       JOIN applications a ON a.id = k.application_id
       JOIN projects p ON p.id = a.project_id
      WHERE k.client_id = $1`,
    [clientId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    clientSecretHash: row.client_secret_hash,
    redirectUris: row.redirect_uris,
    applicationEnabled: row.app_enabled,
    projectEnabled: row.project_enabled,
  };
}
