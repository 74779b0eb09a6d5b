import {
  applicationLinks,
  applicationList,
  type Application,
  type ApplicationType,
  type StoredApplicationKeys,
  type PlatformCode,
} from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { listTable } from '../../db/list-kit.ts';
import { eq } from '../../db/list-page.ts';
import type { Versioned } from '../../http/etag.ts';
import type { Client } from '../../issuer/project-provider.ts';

// Rows come back under the domain's field names; the links are the only fields not stored.
const APPLICATION = `id, project_id AS "projectId", name, platform_code AS "platformCode", application_type AS "applicationType", enabled, logo_url AS "logoUrl"`;
type ApplicationRow = Omit<Application, 'keysEndpoint' | 'generateNewKeysEndpoint'>;

function withLinks(row: ApplicationRow): Application {
  return { ...row, ...applicationLinks(row.id) };
}

function versionedApplication(row: (ApplicationRow & { version: number }) | undefined): Versioned<Application> | null {
  if (!row) return null;
  const { version, ...application } = row;
  return { value: withLinks(application), version };
}

/** `forUpdate` locks the row until the transaction ends (read-check-write without lost updates). */
export async function findApplication(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<Versioned<Application> | null> {
  const { rows } = await db.query<ApplicationRow & { version: number }>(
    `SELECT ${APPLICATION}, version FROM applications WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return versionedApplication(rows[0]);
}

/** The project an application belongs to (it never moves), or null when there is no such application. */
export async function findProjectOfApplication(db: Db, id: string): Promise<string | null> {
  const { rows } = await db.query<{ project_id: string }>('SELECT project_id FROM applications WHERE id = $1', [id]);
  return rows[0]?.project_id ?? null;
}

/**
 * Inside a write's transaction: whether the project is enabled, or null when it does not exist.
 * Raises the project's clients' version (every instance's cached clients of the project are stale
 * from its commit on: issuer/client-cache.ts); the row lock it takes keeps the project from being
 * closed until the write commits, and orders the project's application writes.
 */
export async function lockProjectForAppWrite(tx: Db, projectId: string): Promise<{ enabled: boolean } | null> {
  const { rows } = await tx.query<{ enabled: boolean }>('UPDATE projects SET clients_version = clients_version + 1 WHERE id = $1 RETURNING enabled', [
    projectId,
  ]);
  return rows[0] ?? null;
}

export async function insertApplication(
  db: Db,
  a: { id: string; projectId: string; name: string; platformCode: PlatformCode; applicationType: ApplicationType; url: string; now: Date },
): Promise<Versioned<Application>> {
  const { rows } = await db.query<ApplicationRow & { version: number }>(
    `INSERT INTO applications (id, project_id, name, platform_code, application_type, enabled, logo_url, url, created_at, updated_at, version)
     VALUES ($1, $2, $3, $4, $7, true, '', $5, $6, $6, 1) RETURNING ${APPLICATION}, version`,
    [a.id, a.projectId, a.name, a.platformCode, a.url, a.now, a.applicationType],
  );
  return versionedApplication(rows[0]) as Versioned<Application>;
}

/** Writes the new state and bumps the version (the ETag). */
export async function saveApplication(
  db: Db,
  a: { id: string; name: string; logoUrl: string; enabled: boolean; now: Date },
): Promise<Versioned<Application>> {
  const { rows } = await db.query<ApplicationRow & { version: number }>(
    `UPDATE applications SET name = $2, logo_url = $3, enabled = $4, version = version + 1, updated_at = $5
     WHERE id = $1 RETURNING ${APPLICATION}, version`,
    [a.id, a.name, a.logoUrl, a.enabled, a.now],
  );
  return versionedApplication(rows[0]) as Versioned<Application>;
}

/**
 * The applications list (spec §7) on the list kit. Names sort case-insensitively (name_key =
 * lower(name), a stored column). Ties are broken by name, then id, in the same direction, so the
 * whole key is the column order of one index (migrations 0002, 0003) read forwards or backwards, and
 * the order is total: paging never repeats or skips a row. The name filter is "contains",
 * case-insensitive (`name_key LIKE lower('%…%')`), answered by the trigram index when the term is
 * selective and by the (project_id, name_key, id) index otherwise. Without a name the total is the
 * sum of the kept counters (migration 0003, made exact by freshCounts), one to a few rows.
 */
export const applicationsTable = listTable(applicationList, {
  table: 'applications',
  key: 'id',
  select: APPLICATION,
  fromRow: withLinks,
  filters: { name: 'name_key', enabled: 'enabled', platformCode: 'platform_code' },
  sorts: {
    name: (d) => `name_key ${d}, id ${d}`,
    platformCode: (d) => `platform_code ${d}, name_key ${d}, id ${d}`,
    enabled: (d) => `enabled ${d}, name_key ${d}, id ${d}`,
    createdAt: (d) => `created_at ${d}, id ${d}`,
  },
  scope: (projectId) => [eq('project_id', projectId)],
  counter: { sql: 'SELECT coalesce(sum(n), 0)::int AS total FROM application_counts', filters: ['enabled', 'platformCode'] },
});

/**
 * Makes the project's kept totals (application_counts) exact before a list reads them. They were
 * counted at some clients' version (projects.application_counts_version); every write to the
 * project's applications raises that version (lockProjectForAppWrite, by this version and the
 * previous), so a different one means a change since: the totals are counted again, under the
 * project's row lock (writers hold it until they commit), in a statement that starts after it is
 * taken and so sees every committed write. No trigger (a distributed database has none to offer:
 * docs/decisions/0037); one primary-key read when nothing changed.
 */
export async function freshCounts(db: Db, projectId: string): Promise<void> {
  const { rows } = await db.query<{ fresh: boolean }>(
    'SELECT application_counts_version IS NOT DISTINCT FROM clients_version AS fresh FROM projects WHERE id = $1',
    [projectId],
  );
  if (!rows[0] || rows[0].fresh) return;
  await db.transaction(async (tx) => {
    const { rows: locked } = await tx.query<{ version: number; fresh: boolean }>(
      `SELECT clients_version AS version, application_counts_version IS NOT DISTINCT FROM clients_version AS fresh
         FROM projects WHERE id = $1 FOR UPDATE`,
      [projectId],
    );
    if (!locked[0] || locked[0].fresh) return;
    await tx.query(
      `WITH counted AS (
         SELECT project_id, platform_code, enabled, count(*) AS n FROM applications WHERE project_id = $1 GROUP BY 1, 2, 3
       ), kept AS (
         INSERT INTO application_counts (project_id, platform_code, enabled, n) SELECT * FROM counted
         ON CONFLICT (project_id, platform_code, enabled) DO UPDATE SET n = EXCLUDED.n
       ), emptied AS (
         DELETE FROM application_counts c WHERE c.project_id = $1
            AND NOT EXISTS (SELECT 1 FROM counted x WHERE x.platform_code = c.platform_code AND x.enabled = c.enabled)
       )
       UPDATE projects SET application_counts_version = $2 WHERE id = $1`,
      [projectId, locked[0].version],
    );
  });
}

// The keys as the API answers them; the secret's hash is never read back into an answer, only
// verification selects it. `clientSecret` is filled only in the answer that generated it.
const KEYS = `client_id AS "clientId", '' AS "clientSecret", redirect_uris AS "redirectURI",
  post_logout_redirect_uris AS "postLogoutRedirectURI", coalesce(backchannel_logout_uri, '') AS "backchannelLogoutURI", version`;
type KeysRow = StoredApplicationKeys & { version: number };

function versionedKeys(row: KeysRow | undefined): Versioned<StoredApplicationKeys> | null {
  if (!row) return null;
  const { version, ...keys } = row;
  return { value: keys, version };
}

export async function findKeys(
  db: Db,
  applicationId: string,
  options: { forUpdate?: boolean } = {},
): Promise<Versioned<StoredApplicationKeys> | null> {
  const { rows } = await db.query<KeysRow>(
    `SELECT ${KEYS} FROM application_keys WHERE application_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [applicationId],
  );
  return versionedKeys(rows[0]);
}

export async function insertKeys(
  db: Db,
  k: {
    applicationId: string;
    clientId: string;
    clientSecretHash: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
    backchannelLogoutUri: string | null;
    now: Date;
  },
): Promise<Versioned<StoredApplicationKeys>> {
  const { rows } = await db.query<KeysRow>(
    `INSERT INTO application_keys (project_id, application_id, client_id, client_secret_hash, redirect_uris, post_logout_redirect_uris,
       backchannel_logout_uri, created_at, version)
     SELECT a.project_id, $1, $2, $3, $4::text[], $6::text[], $7, $5, 1 FROM applications a WHERE a.id = $1 RETURNING ${KEYS}`,
    [k.applicationId, k.clientId, k.clientSecretHash, k.redirectUris, k.now, k.postLogoutRedirectUris, k.backchannelLogoutUri],
  );
  return versionedKeys(rows[0]) as Versioned<StoredApplicationKeys>;
}

/**
 * Replaces the redirect URIs, the post-logout ones, the back-channel logout URI and, when
 * `clientSecretHash` is given, the secret (the old one stops matching with this commit); bumps the
 * keys' version (their ETag).
 */
export async function saveKeys(
  db: Db,
  k: {
    applicationId: string;
    redirectUris: string[];
    postLogoutRedirectUris: string[];
    backchannelLogoutUri: string | null;
    clientSecretHash?: string;
    now: Date;
  },
): Promise<Versioned<StoredApplicationKeys>> {
  const { rows } = await db.query<KeysRow>(
    `UPDATE application_keys SET redirect_uris = $2::text[], post_logout_redirect_uris = $5::text[], backchannel_logout_uri = $6,
            version = version + 1, client_secret_hash = coalesce($3, client_secret_hash),
            rotated_at = CASE WHEN $3::text IS NULL THEN rotated_at ELSE $4 END
      WHERE application_id = $1 RETURNING ${KEYS}`,
    [k.applicationId, k.redirectUris, k.clientSecretHash ?? null, k.now, k.postLogoutRedirectUris, k.backchannelLogoutUri],
  );
  return versionedKeys(rows[0]) as Versioned<StoredApplicationKeys>;
}

// The only form of client id this server issues (base64url); anything else names no client, and a
// provider's token request (whose body no guard reads) never takes a NUL byte to the database.
const CLIENT_ID_FORM = /^[A-Za-z0-9_-]{1,200}$/;

/** Replaces a client's stored secret hash by its keyed form, if it is still `from` (docs/decisions/0028). */
export async function rehashClientSecret(db: Db, p: { clientId: string; from: string; to: string }): Promise<void> {
  // The project's clients' version rises with it: a cached client holding the old hash is read again.
  await db.query(
    `WITH rehashed AS (
       UPDATE application_keys SET client_secret_hash = $3 WHERE client_id = $1 AND client_secret_hash = $2 RETURNING project_id)
     UPDATE projects SET clients_version = clients_version + 1
      WHERE id IN (SELECT project_id FROM rehashed)`,
    [p.clientId, p.from, p.to],
  );
}

/** What the provider needs to know about a client id: its secret's hash, redirect URIs and whether it may sign anyone in. */
export async function findClient(db: Db, clientId: string): Promise<Client | null> {
  if (!CLIENT_ID_FORM.test(clientId)) return null;
  const { rows } = await db.query<Client>(
    `SELECT a.project_id AS "projectId", a.application_type AS "applicationType", k.client_secret_hash AS "clientSecretHash", k.redirect_uris AS "redirectUris",
            k.post_logout_redirect_uris AS "postLogoutRedirectUris", k.backchannel_logout_uri AS "backchannelLogoutUri", a.enabled AS "applicationEnabled", p.enabled AS "projectEnabled"
       FROM application_keys k
       JOIN applications a ON a.project_id = k.project_id AND a.id = k.application_id
       JOIN projects p ON p.id = k.project_id
      WHERE k.client_id = $1`,
    [clientId],
  );
  return rows[0] ?? null;
}

/** The names of the project's applications of these client ids. */
export async function applicationNamesOf(db: Db, projectId: string, clientIds: string[]): Promise<Map<string, string>> {
  if (clientIds.length === 0) return new Map();
  const { rows } = await db.query<{ client_id: string; name: string }>(
    `SELECT k.client_id, a.name FROM application_keys k JOIN applications a ON a.project_id = k.project_id AND a.id = k.application_id
      WHERE k.project_id = $1 AND k.client_id = ANY($2::text[])`,
    [projectId, clientIds],
  );
  return new Map(rows.map((r) => [r.client_id, r.name]));
}
