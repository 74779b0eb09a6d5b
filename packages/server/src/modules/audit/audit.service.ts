import type { AuditResult } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../accounts/actor.ts';
import { insertAuditEvent } from './audit.repository.ts';

export interface AuditEntry {
  actor: Actor;
  /** What happened, e.g. `project.create`, `project.close`, `app.disable`. */
  action: string;
  /** spec §4 "Audit result values": named by the caller for what happened, never guessed from `action`. */
  result: AuditResult;
  projectId: string | null;
  /** Never a secret. */
  details?: Record<string, unknown>;
  /**
   * Whom the action was about, when it is an end user's device (a revocation): the event's userID
   * and device name are theirs, so the project's audit log lists it beside their sign-ins; the
   * acting account stays in details.
   */
  subject?: { userId: string | null; deviceName: string | null };
}

/** Called by services after a write, inside the write's transaction, so the record and the change commit together. */
export type AuditHook = (tx: Db, entry: AuditEntry) => Promise<void>;

/** Console actions land in audit_events with scope `console`; the audit log pages list them per project. */
export function createAuditHook(clock: Clock): AuditHook {
  return async (tx, entry) => {
    await insertAuditEvent(tx, {
      projectId: entry.projectId,
      createdAt: clock.now(),
      userId: entry.subject ? entry.subject.userId : (entry.actor.email ?? entry.actor.accountId),
      deviceName: entry.subject?.deviceName ?? null,
      scope: 'console',
      eventStatus: entry.result,
      details: {
        action: entry.action,
        accountId: entry.actor.accountId,
        ...(entry.subject && entry.actor.email ? { accountEmail: entry.actor.email } : {}),
        via: entry.actor.via,
        ...entry.details,
      },
    });
  };
}
