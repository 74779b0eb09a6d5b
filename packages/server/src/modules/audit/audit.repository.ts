import type { AuditResult } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface NewAuditEvent {
  projectId: string | null;
  createdAt: Date;
  userId: string | null;
  deviceName: string | null;
  scope: string;
  eventStatus: AuditResult;
  details: Record<string, unknown>;
}

export async function insertAuditEvent(db: Db, e: NewAuditEvent): Promise<void> {
  await db.query(
    `INSERT INTO audit_events (project_id, created_at, user_id, device_name, scope, event_status, details)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)`,
    [e.projectId, e.createdAt, e.userId, e.deviceName, e.scope, e.eventStatus, JSON.stringify(e.details)],
  );
}
