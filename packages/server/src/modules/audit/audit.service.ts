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
}

/** Called by services after a write, inside the write's transaction, so the record and the change commit together. */
export type AuditHook = (tx: Db, entry: AuditEntry) => Promise<void>;

/** Console actions land in audit_events with scope `console`; the audit log pages list them per project. */
export function createAuditHook(clock: Clock): AuditHook {
  return async (tx, entry) => {
    await insertAuditEvent(tx, {
      projectId: entry.projectId,
      createdAt: clock.now(),
      userId: entry.actor.email ?? entry.actor.accountId,
      deviceName: null,
      scope: 'console',
      eventStatus: entry.result,
      details: { action: entry.action, accountId: entry.actor.accountId, via: entry.actor.via, ...entry.details },
    });
  };
}
