import { deviceList, type DateRange, type DeviceFilter, type DeviceIdentity } from '@latchkey/domain';
import { prepared, type Db } from '../db/db.ts';
import { deleteImportedPassword } from './imported-passwords.repository.ts';
import { rangedListTable, type FilterCondition } from '../db/list-kit.ts';
import { bind, type Condition } from '../db/list-page.ts';
import { CREATED_AT_TEXT, type SeekColumn } from '../db/ranged-list-page.ts';
import { iso } from '../db/rows.ts';
import { changeOf, type EventChange } from '../events/audit-events.repository.ts';
import type { Passkey } from '../oidc/passkeys.ts';

// devices' one owner (issue 35): a passkey as the ceremonies read it (Device) and as the
// management API answers it (the domain's DeviceIdentity, the devices list and its bulk revocation).

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
  rp_id: string | null;
  backup_eligible: boolean | null;
  backed_up: boolean | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked: boolean;
  revoked_at: Date | null;
  revoke_reason: string | null;
}

const COLUMNS =
  'project_id, id, user_id, public_key, counter, transports, name, ip, country, registered_with, rp_id, backup_eligible, backed_up, created_at, last_used_at, revoked, revoked_at, revoke_reason';

/** A passkey by its id (a passkey sign-in's first read: prepared, docs/decisions/0055). */
const DEVICE_BY_ID = prepared(`SELECT ${COLUMNS} FROM devices WHERE project_id = $1 AND id = $2`);

/** A person by their identity (by its column), with their passkeys: a sign-in's page 1 (prepared). */
const OWNER_WITH_DEVICES = Object.fromEntries(
  (['email', 'username'] as const).map((column) => [
    column,
    prepared(`SELECT u.id AS found, ${COLUMNS.split(', ')
      .map((c) => `d.${c}`)
      .join(', ')}
       FROM project_users u LEFT JOIN devices d ON d.project_id = u.project_id AND d.user_id = u.id
      WHERE u.project_id = $1 AND u.${column} = $2 ORDER BY d.created_at, d.id`),
  ]),
) as Record<'email' | 'username', string>;

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
    rpId: row.rp_id,
    backupEligible: row.backup_eligible,
    backedUp: row.backed_up,
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
    Partial<Pick<Device, 'registeredWith' | 'rpId' | 'backupEligible' | 'backedUp'>>,
): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO devices (project_id, id, user_id, public_key, counter, transports, name, ip, country, registered_with, created_at, rp_id,
                          backup_eligible, backed_up)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
       FROM project_users u WHERE u.project_id = $1 AND u.id = $3
     ON CONFLICT (project_id, id) DO NOTHING RETURNING id`,
    [
      d.projectId,
      d.id,
      d.userId,
      d.publicKey,
      d.counter,
      d.transports,
      d.name,
      d.ip,
      d.country,
      d.registeredWith ?? 'email_code',
      d.createdAt,
      d.rpId ?? null,
      d.backupEligible ?? null,
      d.backedUp ?? null,
    ],
  );
  // docs/decisions/0052: the person's first passkey ends their imported password, in the same transaction.
  if (rows.length === 1) await deleteImportedPassword(db, d.projectId, d.userId);
  return rows.length === 1;
}

/** The device with this credential id in this project only: a credential of another project is not found. */
export async function findDevice(db: Db, projectId: string, id: string): Promise<Device | null> {
  const { rows } = await db.query<Row>(DEVICE_BY_ID, [projectId, id]);
  return rows[0] ? toDevice(rows[0]) : null;
}

/**
 * Does any project hold this credential id? (docs/decisions/0048: the console's sign-in shares
 * PUBLIC_URL's host as its relying party with the projects on the shared path, so it may be answered
 * with an end user's passkey, which must never be signalled to the browser as unknown.) Every
 * project is read (devices_id_idx, migration 0020; on Citus a fan-out read, only for a
 * credential the console does not know).
 */
export async function credentialHeldByAProject(db: Db, id: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM devices WHERE id = $1 LIMIT 1', [id]);
  return rows.length === 1;
}

/** How many of the person's active passkeys their authenticator backs up (synced: the BS flag last seen, docs/decisions/0050). */
export async function countSyncedPasskeys(db: Db, projectId: string, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM devices WHERE project_id = $1 AND user_id = $2 AND NOT revoked AND backed_up',
    [projectId, userId],
  );
  return Number(rows[0]?.n ?? 0);
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
  const { rows } = await db.query<{ found: string } & (Row | { [K in keyof Row]: null })>(OWNER_WITH_DEVICES[column], [projectId, identity.value]);
  const first = rows[0];
  if (!first) return null;
  return { id: first.found, devices: rows.flatMap((row) => (row.id === null ? [] : [toDevice(row as Row)])) };
}

/**
 * Records a sign-in with the device: its new signature counter and when. Answers false when the
 * device was revoked meanwhile, so a revocation racing a sign-in wins.
 */
// The backup state (BS) may change after registration (a provider starts syncing): kept as last seen.
const MARK_USED_SQL =
  'UPDATE devices SET counter = $3, last_used_at = $4, backed_up = coalesce($5, backed_up) WHERE project_id = $1 AND id = $2 AND NOT revoked RETURNING id';

export async function markDeviceUsed(db: Db, p: { projectId: string; id: string; counter: number; now: Date; backedUp?: boolean }): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(MARK_USED_SQL, [p.projectId, p.id, p.counter, p.now, p.backedUp ?? null]);
  return rows.length === 1;
}

/**
 * markDeviceUsed as the change its sign-in event records, in the event's statement (issue 38):
 * required — a device revoked meanwhile is not marked, and no event is written.
 */
export function deviceUseChange(p: { projectId: string; id: string; counter: number; now: Date; backedUp?: boolean }): EventChange {
  return changeOf('used', MARK_USED_SQL, [p.projectId, p.id, p.counter, p.now, p.backedUp ?? null], true);
}

/**
 * Marks the device revoked (spec §4 "Device": one way). Answers the device as it now is, or null
 * when there is no such device in this project (of `userId`, when given) or it was revoked already —
 * `findDevice` tells which.
 */
export async function revokeDevice(db: Db, p: { projectId: string; id: string; reason: string; now: Date; userId?: string }): Promise<Device | null> {
  const { rows } = await db.query<Row>(
    `UPDATE devices SET revoked = true, revoked_at = $3, revoke_reason = $4
      WHERE project_id = $1 AND id = $2 AND NOT revoked AND ($5::text IS NULL OR user_id = $5) RETURNING ${COLUMNS}`,
    [p.projectId, p.id, p.now, p.reason, p.userId ?? null],
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

// The devices list (spec §7 "Devices", docs/decisions/0019) on the list kit: the domain's
// declaration (deviceList) read from the devices table.

const CREATED: SeekColumn = { column: 'created_at', text: CREATED_AT_TEXT, cast: 'timestamptz' };
const ID: SeekColumn = { column: 'id', text: 'id', cast: 'text' };

export interface DeviceRow extends Omit<DeviceIdentity, 'createdAt' | 'lastUsedAt' | 'revokedAt'> {
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** A devices row as the domain's device. */
export const deviceFromRow = (r: DeviceRow): DeviceIdentity => ({
  ...r,
  createdAt: iso(r.createdAt),
  lastUsedAt: r.lastUsedAt && iso(r.lastUsedAt),
  revokedAt: r.revokedAt && iso(r.revokedAt),
});

/**
 * The devices with their owner's identity (owner_key: project_users.identity_key, byte-order,
 * lower-case), which is stored once, with the person (docs/decisions/0046): read by the person's
 * key for each row that asks for it (a page's rows, a few matches sorted by owner), never for a
 * statement that does not (the totals, the other sorts' keys).
 */
const DEVICES_WITH_OWNER = `(SELECT d.*, (SELECT u.identity_key FROM project_users u WHERE u.project_id = d.project_id AND u.id = d.user_id) AS owner_key
    FROM devices d) AS devices`;

/**
 * The sort by owner walks the owners in order (project_users_identity_idx) and reaches each one's
 * devices by devices_user_idx (project_id, user_id, created_at, id), ordered by creation within the
 * owner (an incremental sort: an identity is one person's).
 */
const DEVICES_BY_OWNER = `(SELECT d.*, u.identity_key AS owner_key
    FROM project_users u JOIN devices d ON d.project_id = u.project_id AND d.user_id = u.id) AS devices`;

/**
 * The owner filter (spec §7: the whole identity, any case): the devices of the person with that
 * identity, by devices_user_idx; the person is read once (an InitPlan).
 */
const ownerFilter: FilterCondition = (text, projectId) => ({
  sql: `user_id = (SELECT u.id FROM project_users u WHERE u.project_id = ($?::text[])[1] AND u.identity_key = ($?::text[])[2])`,
  value: [projectId, text.toLowerCase()],
});

/** The columns of a device as the domain's DeviceIdentity reads them (deviceFromRow), from DEVICES_WITH_OWNER. */
export const DEVICE_COLUMNS = `id AS "mpinId", owner_key AS "userId", name AS "deviceName", ip, country, created_at AS "createdAt",
    last_used_at AS "lastUsedAt", revoked, revoked_at AS "revokedAt"`;

/**
 * Each sort is the column order of one index (migration 0014's (project_id, …, created_at, id)),
 * read forwards or backwards; by owner, DEVICES_BY_OWNER. ip can be null, so its pages go by offset
 * only. Names have a lower-cased key (name_key).
 */
export const devicesTable = rangedListTable(deviceList, {
  table: DEVICES_WITH_OWNER,
  key: 'project_id, id',
  select: DEVICE_COLUMNS,
  fromRow: deviceFromRow,
  filters: { userId: ownerFilter, deviceName: 'name_key', ip: 'ip COLLATE "C"', revoked: 'revoked' },
  sorts: {
    createdAt: { columns: [CREATED, ID], reads: 'project_id, id, created_at', seekable: true },
    userId: {
      columns: [{ column: 'owner_key', text: 'owner_key', cast: 'text' }, CREATED, ID],
      reads: 'project_id, id, owner_key, created_at',
      seekable: true,
      keysFrom: DEVICES_BY_OWNER,
      // Each match sorted in memory costs an owner lookup (~4 buffers); past a thousand, walking the
      // owners in order finds a page sooner (lists bench at 1 M devices: 2,976 revoked this month,
      // p50 17 ms sorted vs 7 ms walked on the loaded machine).
      fewCap: 1_000,
    },
    deviceName: {
      columns: [{ column: 'name_key', text: 'name_key', cast: 'text' }, CREATED, ID],
      reads: 'project_id, id, name_key, created_at',
      seekable: true,
    },
    ip: { columns: [{ column: 'ip COLLATE "C"', text: 'ip', cast: 'text' }, CREATED, ID], reads: 'project_id, id, ip, created_at', seekable: false },
    revoked: {
      columns: [{ column: 'revoked', text: 'revoked::text', cast: 'boolean' }, CREATED, ID],
      reads: 'project_id, id, revoked, created_at',
      seekable: true,
    },
  },
});

/** Every passkey of the user, newest first (devices_user_idx; a person has a handful). */
export async function devicesOfUser(db: Db, projectId: string, userId: string): Promise<DeviceIdentity[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM ${DEVICES_WITH_OWNER} WHERE project_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC`,
    [projectId, userId],
  );
  return rows.map(deviceFromRow);
}

/** The active devices of the list's filter registered in `range` (docs/decisions/0019 "Bulk revocation"). */
function activeMatching(projectId: string, range: DateRange, filter: DeviceFilter): Condition[] {
  return devicesTable.where(projectId, range, { ...filter, revoked: false });
}

/** How many active devices match: exact (one index range of the filter's index; the confirm states it). */
export async function countActiveMatching(db: Db, projectId: string, range: DateRange, filter: DeviceFilter): Promise<number> {
  const params: unknown[] = [];
  const where = bind(activeMatching(projectId, range, filter), params);
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${DEVICES_WITH_OWNER} WHERE ${where}`, params);
  return Number(rows[0]?.n ?? 0);
}

/** The ids of up to `limit` active matching devices, oldest first. */
export async function activeMatchingIds(db: Db, projectId: string, range: DateRange, filter: DeviceFilter, limit: number): Promise<string[]> {
  const params: unknown[] = [];
  const where = bind(activeMatching(projectId, range, filter), params);
  params.push(limit);
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM ${DEVICES_WITH_OWNER} WHERE ${where} ORDER BY created_at, id LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => r.id);
}

/** A passkey's public data as the migration export writes it (issue 37, docs/decisions/0052). */
interface ExportedPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  rpId: string | null;
  createdAt: string;
}

/** The active passkeys of these users, by user (devices_user_idx). */
export async function passkeysOfUsers(db: Db, projectId: string, userIds: readonly string[]): Promise<Map<string, ExportedPasskey[]>> {
  const { rows } = await db.query<{
    userId: string;
    credentialId: string;
    publicKey: string;
    counter: string | number;
    transports: string[];
    rpId: string | null;
    createdAt: Date;
  }>(
    `SELECT user_id AS "userId", id AS "credentialId", public_key AS "publicKey", counter, transports, rp_id AS "rpId", created_at AS "createdAt"
       FROM devices WHERE project_id = $1 AND user_id = ANY($2::text[]) AND NOT revoked ORDER BY user_id, created_at, id`,
    [projectId, userIds],
  );
  const byUser = new Map<string, ExportedPasskey[]>();
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({
      credentialId: r.credentialId,
      publicKey: r.publicKey,
      counter: Number(r.counter),
      transports: r.transports,
      rpId: r.rpId,
      createdAt: iso(r.createdAt),
    });
    byUser.set(r.userId, list);
  }
  return byUser;
}
