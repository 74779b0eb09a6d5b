import { defaultIssuer, newProjectSettings, type Issuer, type Project, type ProjectSettings, type ProjectSummary } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import type { Versioned } from '../../http/etag.ts';
import { HOST_ORIGINS } from '../../issuer/issuer-state.repository.ts';
import type { IssuerHosts } from '../../issuer/custom-domains.ts';

// A project row is the domain's Project: the settings document with id, name and enabled beside
// it. Documents written before a field existed read with that field's default.
const PROJECT = 'id, name, enabled, settings, version';
interface ProjectRow {
  id: string;
  name: string;
  enabled: boolean;
  settings: Partial<ProjectSettings>;
  version: number;
}

function versionedProject(row: ProjectRow | undefined): Versioned<Project> | null {
  if (!row) return null;
  const value: Project = { ...newProjectSettings(row.name), ...row.settings, name: row.name, id: row.id, enabled: row.enabled };
  return { value, version: row.version };
}

/** `forUpdate` locks the row until the transaction ends (read-check-write without lost updates). */
export async function findProject(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<Versioned<Project> | null> {
  const { rows } = await db.query<ProjectRow>(`SELECT ${PROJECT} FROM projects WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return versionedProject(rows[0]);
}

/**
 * spec §3 Issuer of a project (the defaults until first saved), with the project's version and the
 * origins of its custom domain (docs/decisions/0016) and own host (docs/decisions/0047), each if it has one.
 */
export async function findIssuer(db: Db, id: string): Promise<(Versioned<Issuer> & { hosts: IssuerHosts }) | null> {
  const { rows } = await db.query<{ issuer: Partial<Issuer> | null; version: number; custom_origin: string | null; own_origin: string | null }>(
    `SELECT issuer, version, ${HOST_ORIGINS} FROM projects WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  // A document saved before a field existed (or none at all) reads with that field's default.
  if (!row) return null;
  return {
    value: { ...defaultIssuer(), ...row.issuer },
    version: row.version,
    hosts: { customOrigin: row.custom_origin, ownOrigin: row.own_origin },
  };
}

/**
 * Inside a transaction: the hosts a project is served at (docs/decisions/0016) become `hosts`.
 * Answers the hosts another project holds (none stored for them; the caller refuses the change):
 * the primary key decides, also between two transactions claiming one host at once.
 */
export async function replaceProjectHosts(db: Db, projectId: string, hosts: Array<{ host: string; origin: string | null }>): Promise<string[]> {
  // The own host (docs/decisions/0047) is no domain setting's: it stays.
  await db.query('DELETE FROM project_hosts WHERE project_id = $1 AND NOT own', [projectId]);
  const taken: string[] = [];
  for (const { host, origin } of hosts) {
    const { rows } = await db.query(
      'INSERT INTO project_hosts (host, project_id, origin) VALUES ($1, $2, $3) ON CONFLICT (host) DO NOTHING RETURNING host',
      [host, projectId, origin],
    );
    if (rows.length === 0) taken.push(host);
  }
  return taken;
}

/**
 * Inside a transaction: the project's issuer gets its own host (docs/decisions/0047). False when the
 * host is held already (by a custom domain set before ISSUER_DOMAIN was, or by this project: one own host each).
 */
export async function claimOwnHost(db: Db, projectId: string, origin: string): Promise<boolean> {
  const { rows } = await db.query(
    'INSERT INTO project_hosts (host, project_id, origin, own) VALUES ($1, $2, $3, true) ON CONFLICT DO NOTHING RETURNING host',
    [new URL(origin).host, projectId, origin],
  );
  return rows.length === 1;
}

export async function projectExists(db: Db, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM projects WHERE id = $1', [id]);
  return rows.length > 0;
}

/** How many projects an account has created (the quota of accounts without a global permission). */
export async function countProjectsCreatedBy(db: Db, accountId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects WHERE created_by = $1', [accountId]);
  return Number(rows[0]?.n ?? 0);
}

export async function insertProject(
  db: Db,
  p: { id: string; email: string; createdBy: string | null; settings: ProjectSettings; now: Date },
): Promise<Versioned<Project>> {
  const { rows } = await db.query<ProjectRow>(
    `INSERT INTO projects (id, name, enabled, email, created_by, settings, issuer, version, created_at, updated_at)
     VALUES ($1, $2, true, $3, $4, $5::jsonb, NULL, 1, $6, $6) RETURNING ${PROJECT}`,
    [p.id, p.settings.name, p.email, p.createdBy, JSON.stringify(p.settings), p.now],
  );
  return versionedProject(rows[0]) as Versioned<Project>;
}

/** Writes the project's settings and state and bumps the version (the ETag). */
export async function saveProject(db: Db, p: { id: string; enabled: boolean; settings: ProjectSettings; now: Date }): Promise<Versioned<Project>> {
  const { rows } = await db.query<ProjectRow>(
    `UPDATE projects SET name = $2, enabled = $3, settings = $4::jsonb, version = version + 1, updated_at = $5
     WHERE id = $1 RETURNING ${PROJECT}`,
    [p.id, p.settings.name, p.enabled, JSON.stringify(p.settings), p.now],
  );
  return versionedProject(rows[0]) as Versioned<Project>;
}

/** Writes the project's issuer settings and bumps the project's version. */
export async function saveIssuer(db: Db, p: { id: string; issuer: Issuer; now: Date }): Promise<Versioned<Issuer>> {
  const { rows } = await db.query<{ issuer: Issuer; version: number }>(
    `UPDATE projects SET issuer = $2::jsonb, version = version + 1, updated_at = $3 WHERE id = $1 RETURNING issuer, version`,
    [p.id, JSON.stringify(p.issuer), p.now],
  );
  const row = rows[0] as { issuer: Issuer; version: number };
  return { value: row.issuer, version: row.version };
}

// The project list: only id, name, logoUrl and enabled (spec §3).
const SUMMARY = `id, name, coalesce(settings->>'logoUrl', '') AS "logoUrl", enabled`;

/** Every project, by name (accounts holding a global permission). */
export async function listAllProjects(db: Db): Promise<ProjectSummary[]> {
  const { rows } = await db.query<ProjectSummary>(`SELECT ${SUMMARY} FROM projects ORDER BY name, id`);
  return rows;
}

/** The projects an account holds any cst:{project}:… permission on, by name. */
export async function listProjectsOfAccount(db: Db, accountId: string): Promise<ProjectSummary[]> {
  const { rows } = await db.query<ProjectSummary>(
    `SELECT ${SUMMARY} FROM projects
      WHERE id IN (SELECT project_id FROM account_permissions WHERE account_id = $1 AND project_id IS NOT NULL)
      ORDER BY name, id`,
    [accountId],
  );
  return rows;
}

type PushPlatforms = ProjectSettings['pushOptions']['platforms'];
const PUSH_PLATFORMS = `settings #> '{pushOptions,platforms}'`;

/** The push platforms of every project that has any (the start-up pass over stored push keys). */
export async function listPushPlatforms(db: Db): Promise<Array<{ id: string; platforms: PushPlatforms }>> {
  const { rows } = await db.query<{ id: string; platforms: PushPlatforms }>(
    `SELECT id, ${PUSH_PLATFORMS} AS platforms FROM projects WHERE jsonb_typeof(${PUSH_PLATFORMS}) = 'array' AND ${PUSH_PLATFORMS} <> '[]'::jsonb`,
  );
  return rows;
}

/** Inside a transaction: one project's push platforms, the row locked until the transaction ends. */
export async function lockPushPlatforms(db: Db, id: string): Promise<PushPlatforms> {
  const { rows } = await db.query<{ platforms: PushPlatforms | null }>(
    `SELECT ${PUSH_PLATFORMS} AS platforms FROM projects WHERE id = $1 FOR UPDATE`,
    [id],
  );
  const platforms = rows[0]?.platforms;
  return Array.isArray(platforms) ? platforms : [];
}

/**
 * Replaces how the push platforms are stored without bumping the version (the ETag) or
 * updated_at: only for a change no reader can see (sealing a key again).
 */
export async function replacePushPlatformsKeepingVersion(db: Db, id: string, platforms: PushPlatforms): Promise<void> {
  await db.query(`UPDATE projects SET settings = jsonb_set(settings, '{pushOptions,platforms}', $2::jsonb) WHERE id = $1`, [
    id,
    JSON.stringify(platforms),
  ]);
}
