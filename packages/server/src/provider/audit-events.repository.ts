import { randomBytes } from 'node:crypto';
import type { AuditResult, UsageKey } from '@latchkey/domain';
import type { Db } from '../db/db.ts';

/** One row of audit_events (migration 0010): spec §3 "Audit event" and what the details modal shows. */
export interface NewAuditEvent {
  /** null: an event of no project (stored as ''). */
  projectId: string | null;
  createdAt: Date;
  /** spec "userID": the end user's identity (their email) or the console account acting. */
  userId: string | null;
  deviceName: string | null;
  /** spec §9 scopes for end-user events; `console` for console actions. */
  scope: string;
  eventStatus: AuditResult;
  ip?: string | null;
  /** ISO 3166-1 alpha-2, ZZ unknown. */
  country?: string | null;
  clientId?: string | null;
  userAgent?: string | null;
  details: Record<string, unknown>;
}

let lastMs = 0;
let sequence = 0;

/**
 * A UUIDv7 (RFC 9562): 48 bits of milliseconds, then a 12-bit counter that keeps ids made in the
 * same millisecond by this process in order (method 1 of §6.2), then random bits. The key of an
 * event needs no global sequence (DESIGN "The data plane"), and ties of created_at sort in the order
 * the events were written.
 */
export function eventId(nowMs: number = Date.now()): string {
  if (nowMs > lastMs) {
    lastMs = nowMs;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1;
    sequence = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(lastMs, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A usage hit counted with its event (migration 0010's rollups): the key; its hour, day and country are the event's. */
export interface UsageHit {
  key: UsageKey;
}

/**
 * Writes one event and, with `usage`, counts it in the usage rollups: the hour, the day and the day
 * × country of its time (UTC). One statement (data-modifying CTEs), so a count never exists without
 * its event nor an event without its count, in one round trip. `signedIn`: the event is the user's
 * successful sign-in, so the user's last sign-in (the users list, migration 0030) moves to its time
 * in the same statement.
 */
export async function insertAuditEvent(db: Db, e: NewAuditEvent, usage?: UsageHit, signedIn = false): Promise<void> {
  const lastSignIn =
    signedIn && e.projectId && e.userId
      ? 'signed_in AS (UPDATE project_users SET last_sign_in_at = $2 WHERE project_id = $1 AND identity_key = $4)'
      : null;
  const event = `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)`;
  const params: unknown[] = [
    e.projectId ?? '',
    e.createdAt,
    eventId(),
    e.userId,
    e.deviceName,
    e.scope,
    e.eventStatus,
    e.ip ?? null,
    e.country ?? null,
    e.clientId ?? null,
    e.userAgent ?? null,
    JSON.stringify(e.details),
  ];
  if (!usage) {
    await db.query(lastSignIn ? `WITH ${lastSignIn} ${event}` : event, params);
    return;
  }
  const hour = new Date(Math.floor(e.createdAt.getTime() / 3_600_000) * 3_600_000);
  const day = e.createdAt.toISOString().slice(0, 10);
  await db.query(
    `WITH ${lastSignIn ? `${lastSignIn}, ` : ''}event AS (${event}), hourly AS (
       INSERT INTO usage_hourly AS u (project_id, hour, key, count) VALUES ($1, $13, $14, 1)
       ON CONFLICT (project_id, hour, key) DO UPDATE SET count = u.count + 1
     ), daily AS (
       INSERT INTO usage_daily AS u (project_id, day, key, count) VALUES ($1, $15, $14, 1)
       ON CONFLICT (project_id, day, key) DO UPDATE SET count = u.count + 1
     )
     INSERT INTO usage_daily_country AS u (project_id, day, country, key, count) VALUES ($1, $15, $16, $14, 1)
     ON CONFLICT (project_id, day, country, key) DO UPDATE SET count = u.count + 1`,
    [...params, hour, usage.key, day, e.country ?? 'ZZ'],
  );
}
