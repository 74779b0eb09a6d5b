import type { AuditResult } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { countryLookup, type CountryLookup } from '../../geoip.ts';
import type { Actor } from '../../http/actor.ts';
import { insertAuditEvent } from '../../events/audit-events.repository.ts';
import type { Changes } from './changes.ts';

export interface AuditEntry {
  actor: Actor;
  /** What happened, e.g. `project.create`, `project.close`, `app.disable`. */
  action: string;
  /** spec §4 "Audit result values": named by the caller for what happened, never guessed from `action`. */
  result: AuditResult;
  projectId: string | null;
  /**
   * What the write changed (changesBetween): before/after of exactly the fields that differ, or the
   * fields it created; a secret as "(changed)". Stored as details.changes.
   */
  changes?: Changes;
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

/**
 * Console and API writes land in audit_events with scope `console` (docs/decisions/0014
 * "Management actions"): the acting account (userID: its email, stored lower-case
 * as the audit list's filter compares it; its id and how it signed in in details), the request's address, its country and
 * user agent in the event's own columns, and what changed. The audit log pages list them per project.
 */
export function createAuditHook(clock: Clock, options: { countries?: () => CountryLookup; webhooksQueued?: () => void } = {}): AuditHook {
  const { countries = countryLookup, webhooksQueued = () => undefined } = options;
  return async (tx, entry) => {
    const { actor, subject } = entry;
    const origin = actor.origin;
    const queued = await insertAuditEvent(tx, {
      projectId: entry.projectId,
      createdAt: clock.now(),
      userId: subject ? subject.userId : (actor.email ?? actor.accountId),
      // An end user the action is about is stored by their id while they are a person of the project
      // (docs/decisions/0046); the acting account (staff, not an end user) as its email or id.
      ...(subject?.userId ? { unknownAs: subject.userId } : {}),
      deviceName: subject?.deviceName ?? null,
      scope: 'console',
      eventStatus: entry.result,
      ip: origin?.ip ?? null,
      country: origin ? countries().countryOf(origin.ip) : null,
      userAgent: origin?.userAgent?.slice(0, 512) ?? null,
      details: {
        action: entry.action,
        accountId: actor.accountId,
        ...(subject && actor.email ? { accountEmail: actor.email } : {}),
        via: actor.via,
        ...entry.details,
        ...(entry.changes ? { changes: entry.changes } : {}),
      },
    });
    // Sent soon after the write commits, rather than at the next poll.
    if (queued > 0) webhooksQueued();
  };
}
