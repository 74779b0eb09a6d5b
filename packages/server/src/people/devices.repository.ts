import type { Db } from '../db/db.ts';
import type { Passkey } from '../oidc/passkeys.ts';

/** A passkey credential of a project's end user (docs/decisions/0013): the spec's device, `id` its mpinId. */
export interface Device extends Passkey {
  projectId: string;
  ip: string | null;
  /** ISO 3166-1 alpha-2 from `ip` at registration, ZZ unknown; null for devices registered before countries were kept. */
  country: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokeReason: string | null;
}

interface Row {
  project_id: string;
  id: string;
  user_id: string;
  public_key: string;
  counter: string | number;
  transports: string[] | null;
  name: string;
  ip: string | null;
  country: string | null;
  registered_with: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked: boolean;
  revoked_at: Date | null;
  revoke_reason: string | null;
}

const COLUMNS =
  'project_id, id, user_id, public_key, counter, transports, name, ip, country, registered_with, created_at, last_used_at, revoked, revoked_at, revoke_reason';

function toDevice(row: Row): Device {
  return {
    projectId: row.project_id,
    id: row.id,
    userId: row.user_id,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports ?? [],
    name: row.name,
    ip: row.ip,
    country: row.country,
    registeredWith: row.registered_with,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
    revoked: row.revoked,
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
    revokeReason: row.revoke_reason,
  };
}

/** Answers false when this credential is registered in the project already (a replayed registration). */
export async function insertDevice(
  db: Db,
  d: Pick<Device, 'projectId' | 'id' | 'userId' | 'publicKey' | 'counter' | 'transports' | 'name' | 'ip' | 'country' | 'createdAt'> &
    Partial<Pick<Device, 'registeredWith'>>,
): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    // user_key: the owner's identity, kept on the device for the devices list (migration 0014).
    `INSERT INTO devices (project_id, id, user_id, user_key, public_key, counter, transports, name, ip, country, registered_with, created_at)
     SELECT $1, $2, $3, coalesce(u.email, u.username), $4, $5, $6, $7, $8, $9, $10, $11
       FROM project_users u WHERE u.project_id = $1 AND u.id = $3
     ON CONFLICT (project_id, id) DO NOTHING RETURNING id`,
    [d.projectId, d.id, d.userId, d.publicKey, d.counter, d.transports, d.name, d.ip, d.country, d.registeredWith ?? 'email_code', d.createdAt],
  );
  return rows.length === 1;
}

/** The device with this credential id in this project only: a credential of another project is not found. */
export async function findDevice(db: Db, projectId: string, id: string): Promise<Device | null> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM devices WHERE project_id = $1 AND id = $2`, [projectId, id]);
  return rows[0] ? toDevice(rows[0]) : null;
}

/** Every device of one user in one project, revoked ones included, oldest first. */
export async function userDevices(db: Db, projectId: string, userId: string): Promise<Device[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM devices WHERE project_id = $1 AND user_id = $2 ORDER BY created_at, id`, [
    projectId,
    userId,
  ]);
  return rows.map(toDevice);
}

/**
 * The user this identity names in the project and every device of theirs (revoked ones included,
 * oldest first) in one read — page 1 of a sign-in asks both; null: no such user.
 */
export async function userWithDevices(
  db: Db,
  projectId: string,
  identity: { type: 'email' | 'alphanumeric'; value: string },
): Promise<{ id: string; devices: Device[] } | null> {
  const column = identity.type === 'email' ? 'email' : 'username';
  const { rows } = await db.query<{ found: string } & (Row | { [K in keyof Row]: null })>(
    `SELECT u.id AS found, ${COLUMNS.split(', ')
      .map((c) => `d.${c}`)
      .join(', ')}
       FROM project_users u LEFT JOIN devices d ON d.project_id = u.project_id AND d.user_id = u.id
      WHERE u.project_id = $1 AND u.${column} = $2 ORDER BY d.created_at, d.id`,
    [projectId, identity.value],
  );
  const first = rows[0];
  if (!first) return null;
  return { id: first.found, devices: rows.flatMap((row) => (row.id === null ? [] : [toDevice(row as Row)])) };
}

/**
 * Records a sign-in with the device: its new signature counter and when. Answers false when the
 * device was revoked meanwhile, so a revocation racing a sign-in wins.
 */
export async function markDeviceUsed(db: Db, p: { projectId: string; id: string; counter: number; now: Date }): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE devices SET counter = $3, last_used_at = $4 WHERE project_id = $1 AND id = $2 AND NOT revoked RETURNING id`,
    [p.projectId, p.id, p.counter, p.now],
  );
  return rows.length === 1;
}

export async function findProjectUserByEmail(db: Db, projectId: string, email: string): Promise<{ id: string; email: string } | null> {
  const { rows } = await db.query<{ id: string; email: string }>('SELECT id, email FROM project_users WHERE project_id = $1 AND email = $2', [
    projectId,
    email,
  ]);
  return rows[0] ?? null;
}

/**
 * Marks the device revoked (spec §4 "Device": one way). Answers the device as it now is, or null
 * when there is no such device in this project or it was revoked already — `findDevice` tells which.
 */
export async function revokeDevice(db: Db, p: { projectId: string; id: string; reason: string; now: Date }): Promise<Device | null> {
  const { rows } = await db.query<Row>(
    `UPDATE devices SET revoked = true, revoked_at = $3, revoke_reason = $4
      WHERE project_id = $1 AND id = $2 AND NOT revoked RETURNING ${COLUMNS}`,
    [p.projectId, p.id, p.now, p.reason],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}

/**
 * Renames an active device of `userId` (its owner, on their account page: issue 24). Answers the
 * device as it now is, or null when it is not an active device of theirs in this project.
 */
export async function renameDevice(db: Db, p: { projectId: string; id: string; userId: string; name: string }): Promise<Device | null> {
  const { rows } = await db.query<Row>(
    `UPDATE devices SET name = $4 WHERE project_id = $1 AND id = $2 AND user_id = $3 AND NOT revoked RETURNING ${COLUMNS}`,
    [p.projectId, p.id, p.userId, p.name],
  );
  return rows[0] ? toDevice(rows[0]) : null;
}

/** Inside a write's transaction: whether the project is open, held so until commit (a close waits); null when there is none. */
export async function lockProjectForDeviceWrite(tx: Db, projectId: string): Promise<{ enabled: boolean } | null> {
  const { rows } = await tx.query<{ enabled: boolean }>('SELECT enabled FROM projects WHERE id = $1 FOR SHARE', [projectId]);
  return rows[0] ?? null;
}
