import { randomBytes } from 'node:crypto';
import type { AuditResult } from '@latchkey/domain';
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

export async function insertAuditEvent(db: Db, e: NewAuditEvent): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb)`,
    [
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
    ],
  );
}
