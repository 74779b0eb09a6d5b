import type { DeviceIdentity, EndUser } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import { DEVICE_COLUMNS, deviceFromRow, type DeviceRow } from '../devices/device-list.ts';
import { deleteMessagesOf } from '../webhooks/webhooks.repository.ts';
import { END_USER_COLUMNS, endUserFromRow, type EndUserRow } from './end-user-list.ts';

/** The project's end user `id`, or null; `forUpdate` locks the row until the transaction ends. */
export async function findEndUser(db: Db, projectId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<EndUser | null> {
  const { rows } = await db.query<EndUserRow>(
    `SELECT ${END_USER_COLUMNS} FROM project_users WHERE project_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [projectId, id],
  );
  return rows[0] ? endUserFromRow(rows[0]) : null;
}

/** Every passkey of the user, newest first (devices_user_idx; a person has a handful). */
export async function devicesOfUser(db: Db, projectId: string, userId: string): Promise<DeviceIdentity[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE project_id = $1 AND user_id = $2 ORDER BY created_at DESC, id DESC`,
    [projectId, userId],
  );
  return rows.map(deviceFromRow);
}

/** Blocks (`at`) or unblocks (null) the user; answers them as they are now. */
export async function setBlocked(tx: Db, projectId: string, id: string, at: Date | null): Promise<EndUser> {
  const { rows } = await tx.query<EndUserRow>(
    `UPDATE project_users SET blocked_at = $3 WHERE project_id = $1 AND id = $2 RETURNING ${END_USER_COLUMNS}`,
    [projectId, id, at],
  );
  return endUserFromRow(rows[0] as EndUserRow);
}

/** Whatever the user's registration codes were (a blocked user adds no passkey). */
export async function deleteRegistrationCodesOf(tx: Db, projectId: string, userId: string): Promise<void> {
  await tx.query('DELETE FROM registration_codes WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
}

/**
 * Erasure (issue 24, GDPR art. 17; docs/decisions/0038), inside the caller's transaction once the
 * user's sessions and tokens are ended: the codes and verification links mailed to their identity,
 * and the webhook messages that name them, go; their audit events stay but name them by `pseudonym` — in the userID column and in any
 * top-level detail that held their identity — with no address, user agent or device name; then the
 * user, whose passkeys and registration codes go with them (foreign keys). Usage counts are not
 * touched. The events are rewritten through audit_events_user_idx.
 */
export async function eraseEndUser(tx: Db, e: { projectId: string; id: string; identity: string; pseudonym: string }): Promise<{ events: number }> {
  await tx.query('DELETE FROM login_codes WHERE issuer = $1 AND email = $2', [e.projectId, e.identity]);
  await tx.query('DELETE FROM identity_verifications WHERE project_id = $1 AND identity = $2', [e.projectId, e.identity]);
  await deleteMessagesOf(tx, e.projectId, e.identity);
  const { rows } = await tx.query<{ n: number }>(
    `WITH renamed AS (UPDATE audit_events SET user_id = $3, ip = NULL, user_agent = NULL, device_name = NULL,
            details = (SELECT coalesce(jsonb_object_agg(k, CASE WHEN v = to_jsonb($2::text) OR v = to_jsonb($4::text) THEN to_jsonb($3::text) ELSE v END), '{}'::jsonb)
                         FROM jsonb_each(details) AS d(k, v))
      WHERE project_id = $1 AND user_id = $2 RETURNING 1)
     SELECT count(*)::int AS n FROM renamed`,
    [e.projectId, e.identity, e.pseudonym, e.id],
  );
  await tx.query('DELETE FROM project_users WHERE project_id = $1 AND id = $2', [e.projectId, e.id]);
  return { events: rows[0]?.n ?? 0 };
}

/** Every audit event that names the user, oldest first, as the data export gives them (art. 15). */
export async function eventsOfUser(db: Db, projectId: string, identity: string): Promise<Array<Record<string, unknown>>> {
  const { rows } = await db.query<{
    created_at: Date;
    id: string;
    scope: string;
    event_status: string;
    device_name: string | null;
    ip: string | null;
    country: string | null;
    client_id: string | null;
    user_agent: string | null;
    details: Record<string, unknown>;
  }>(
    `SELECT created_at, id, scope, event_status, device_name, ip, country, client_id, user_agent, details
       FROM audit_events WHERE project_id = $1 AND user_id = $2 ORDER BY created_at, id`,
    [projectId, identity],
  );
  return rows.map((r) => ({
    createdAt: iso(r.created_at),
    id: r.id,
    scope: r.scope,
    result: r.event_status,
    deviceName: r.device_name,
    ip: r.ip,
    country: r.country,
    clientId: r.client_id,
    userAgent: r.user_agent,
    details: r.details,
  }));
}
