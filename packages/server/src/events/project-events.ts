import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { CountryLookup } from '../geoip.ts';
import { rateLimitKeyOf } from '../http/client-address.ts';
import { identityPseudonym, type EndUserEvent, type EventOrigin, type IssuerEvents } from './end-user-event.ts';
import { hitAll } from '../db/rate-limits.repository.ts';
import { insertAuditEventWith, type EnrollmentHit, type EventChange } from './audit-events.repository.ts';
import { countEvent, type Metrics } from '../http/metrics.ts';

/** Refusal events one client address (IPv6: its /64) may add to one project's log per window. */
export const REFUSALS_PER_CLIENT = 30;
/** Refusal events one project's log takes per window from everyone together. */
export const REFUSALS_PER_PROJECT = 2_000;
export const REFUSALS_WINDOW_MS = 10 * 60 * 1000;

/**
 * Where an end user's event counts in the enrollment funnel (docs/decisions/0050), read from the
 * event itself so every step that records a sign-in counts it without knowing of the funnel.
 */
export function enrollmentHitOf(event: EndUserEvent): EnrollmentHit | undefined {
  const method = event.details?.['method'];
  switch (event.action) {
    case 'passkey.offer.shown':
      return { key: 'offer_shown' };
    case 'passkey.offer.declined':
      return { key: 'offer_declined' };
    case 'device.register':
      return event.status === 'created' && event.details?.['offer'] === true ? { key: 'offer_created' } : undefined;
    case 'sign_in':
      if (event.status === 'success') return method === 'passkey' ? { key: 'sign_in_passkey' } : { key: 'sign_in_fallback', fallback: true };
      return method === 'passkey' ? { key: 'passkey_refused' } : undefined;
    default:
      return undefined;
  }
}

/**
 * Writes a project's end-user events and usage counts. `record` runs inside the transaction of the
 * change it records. `refusal` is for what changes nothing (a wrong passkey, a refused request):
 * anyone can cause those without signing in, so they are written in their own transaction and
 * only while the caller's and the project's refusal allowances last — no unauthenticated caller
 * grows the log without bound (the refusal itself happens either way).
 */
export function projectEvents(deps: {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  countries: CountryLookup;
  projectId: string;
  metrics?: Metrics;
  /** The event queued webhook messages: their sender is asked for a round soon after (polled-rounds.ts nudgeSoon). */
  webhooksQueued?: () => void;
}): IssuerEvents {
  const { db, clock, secretBox, countries, projectId, metrics } = deps;

  async function write(tx: Db, origin: EventOrigin, event: EndUserEvent, refused = false, change?: EventChange): Promise<boolean> {
    if (metrics) countEvent(metrics, event, refused);
    const at = clock.now();
    const country = countries.countryOf(origin.ip);
    const { queued, changed } = await insertAuditEventWith(
      tx,
      {
        projectId,
        createdAt: at,
        userId: event.userId,
        // Stored as the person's id, or the identity's pseudonym (docs/decisions/0046).
        ...(event.userId ? { unknownAs: identityPseudonym(secretBox, projectId, event.userId) } : {}),
        deviceName: event.deviceName ?? null,
        scope: event.scope,
        eventStatus: event.status,
        ip: origin.ip,
        country,
        clientId: origin.clientId,
        userAgent: origin.userAgent?.slice(0, 512) ?? null,
        details: { action: event.action, ...event.details },
      },
      event.usage ? { key: event.usage } : undefined,
      event.action === 'sign_in' && event.status === 'success',
      change,
      enrollmentHitOf(event),
    );
    if (queued > 0) deps.webhooksQueued?.();
    return changed;
  }

  const bucket = (parts: string[]) => secretBox.hmac('rate-limit', ['event-refusals', projectId, ...parts].join('\n'));

  return {
    async record(tx: Db, origin: EventOrigin, event: EndUserEvent): Promise<void> {
      await write(tx, origin, event);
    },

    recordWith: (on: Db, origin: EventOrigin, event: EndUserEvent, change: EventChange) => write(on, origin, event, false, change),

    /**
     * An event whose change is not in a transaction of ours (a login the provider is about to save):
     * its one statement is atomic by itself, so no transaction (issue 38: a BEGIN and a COMMIT less).
     */
    async recordNow(origin: EventOrigin, event: EndUserEvent): Promise<void> {
      await write(db, origin, event);
    },

    /** Answers whether the event was written (false: an allowance is used up). */
    async refusal(origin: EventOrigin, event: EndUserEvent): Promise<boolean> {
      const client = rateLimitKeyOf(origin.ip ?? '');
      const refused = await hitAll(
        db,
        projectId,
        [
          { name: 'client', bucket: bucket(['client', client]), max: REFUSALS_PER_CLIENT, windowMs: REFUSALS_WINDOW_MS },
          { name: 'project', bucket: bucket(['project']), max: REFUSALS_PER_PROJECT, windowMs: REFUSALS_WINDOW_MS },
        ],
        clock.now(),
      );
      if (refused) {
        // Not written (the allowance is used up), but refused all the same.
        if (metrics) countEvent(metrics, event, true);
        return false;
      }
      await write(db, origin, event, true);
      return true;
    },

    countryOf: (ip: string | null) => countries.countryOf(ip),
  };
}
