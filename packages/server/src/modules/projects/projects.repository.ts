import { newProjectSettings, type Issuer, type ProjectSettings, type ProjectSummary } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface ProjectRecord {
  id: string;
  enabled: boolean;
  email: string;
  settings: ProjectSettings;
  issuer: Issuer | null;
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

interface DbProject {
  id: string;
  name: string;
  enabled: boolean;
  email: string;
  settings: Partial<ProjectSettings>;
  issuer: Issuer | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, name, enabled, email, settings, issuer, version, created_at, updated_at';

function toRecord(row: DbProject): ProjectRecord {
  return {
    id: row.id,
    enabled: row.enabled,
    email: row.email,
    // Documents written before a field existed read with that field's default.
    settings: { ...newProjectSettings(row.name), ...row.settings, name: row.name },
    issuer: row.issuer,
    version: row.version,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `forUpdate` locks the row until the transaction ends (read-check-write without lost updates). */
export async function findProject(db: Db, id: string, options: { forUpdate?: boolean } = {}): Promise<ProjectRecord | null> {
  const { rows } = await db.query<DbProject>(
    `SELECT ${COLUMNS} FROM projects WHERE id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function projectExists(db: Db, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM projects WHERE id = $1', [id]);
  return rows.length > 0;
}

export async function insertProject(
  db: Db,
  p: { id: string; email: string; settings: ProjectSettings; issuer: Issuer | null; now: Date },
): Promise<ProjectRecord> {
  const { rows } = await db.query<DbProject>(
    `INSERT INTO projects (id, name, enabled, email, settings, issuer, version, created_at, updated_at)
     VALUES ($1, $2, true, $3, $4::jsonb, $5::jsonb, 1, $6, $6) RETURNING ${COLUMNS}`,
    [p.id, p.settings.name, p.email, JSON.stringify(p.settings), p.issuer ? JSON.stringify(p.issuer) : null, p.now],
  );
  return toRecord(rows[0] as DbProject);
}

/** Writes the new state and bumps the version (the ETag). */
export async function saveProject(
  db: Db,
  p: { id: string; enabled: boolean; settings: ProjectSettings; issuer: Issuer | null; now: Date },
): Promise<ProjectRecord> {
  const { rows } = await db.query<DbProject>(
    `UPDATE projects SET name = $2, enabled = $3, settings = $4::jsonb, issuer = $5::jsonb,
            version = version + 1, updated_at = $6
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [p.id, p.settings.name, p.enabled, JSON.stringify(p.settings), p.issuer ? JSON.stringify(p.issuer) : null, p.now],
  );
  return toRecord(rows[0] as DbProject);
}

interface DbSummary {
  id: string;
  name: string;
  logo_url: string | null;
  enabled: boolean;
}

function toSummary(row: DbSummary): ProjectSummary {
  return { id: row.id, name: row.name, logoUrl: row.logo_url ?? '', enabled: row.enabled };
}

/** Every project, by name (accounts holding a global permission). */
export async function listAllProjects(db: Db): Promise<ProjectSummary[]> {
  const { rows } = await db.query<DbSummary>(
    `SELECT id, name, settings->>'logoUrl' AS logo_url, enabled FROM projects ORDER BY name, id`,
  );
  return rows.map(toSummary);
}

/** The projects an account holds any cst:{project}:… permission on, by name. */
export async function listProjectsOfAccount(db: Db, accountId: string): Promise<ProjectSummary[]> {
  const { rows } = await db.query<DbSummary>(
    `SELECT p.id, p.name, p.settings->>'logoUrl' AS logo_url, p.enabled
       FROM projects p
      WHERE p.id IN (SELECT ap.project_id FROM account_permissions ap WHERE ap.account_id = $1 AND ap.project_id IS NOT NULL)
      ORDER BY p.name, p.id`,
    [accountId],
  );
  return rows.map(toSummary);
}
