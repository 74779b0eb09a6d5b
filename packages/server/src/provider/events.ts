import type { AuditResult, Scope, UsageKey } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { CountryLookup } from '../geoip.ts';
import { rateLimitKeyOf } from '../http/client-address.ts';
import { hitAll } from '../idp/rate-limits.repository.ts';
import { insertAuditEvent } from './audit-events.repository.ts';
import { countUsage } from './usage-counts.repository.ts';

/** Who caused an event, as the request shows it: the client address (TRUST_PROXY), its user agent, the application. */
export interface EventOrigin {
  ip: string | null;
  userAgent: string | null;
  clientId: string | null;
}

/**
 * One end-user event at a project's issuer (docs/decisions/0014): spec §3 "Audit event" fields,
 * `action` and the rest in details. `usage`: the rollup key it counts in, for what is counted
 * (registrations, sign-ins, ID tokens issued, QuickCodes); refusals count in none.
 */
export interface EndUserEvent {
  scope: Scope;
  status: AuditResult;
  /** What happened: `sign_in`, `device.register`, `code.issued`, `code.exchanged`, … */
  action: string;
  /** The end user's identity (their email), when known. */
  userId: string | null;
  deviceName?: string | null;
  usage?: UsageKey;
  details?: Record<string, unknown>;
}

/** A sign-in completed by an emailed code (with a passkey created in the same step: `deviceName`). */
export function codeSignInEvent(email: string, deviceName: string | null = null): EndUserEvent {
  return { scope: 'oidc', status: 'success', action: 'sign_in', userId: email, deviceName, usage: 'oidc', details: { method: 'email_code' } };
}

/** Refusal events one client address (IPv6: its /64) may add to one project's log per window. */
export const REFUSALS_PER_CLIENT = 30;
/** Refusal events one project's log takes per window from everyone together. */
export const REFUSALS_PER_PROJECT = 2_000;
export const REFUSALS_WINDOW_MS = 10 * 60 * 1000;

/**
 * Writes a project's end-user events and usage counts. `record` runs inside the transaction of the
 * change it records. `refusal` is for what changes nothing (a wrong passkey, a refused request):
 * anyone can cause those without signing in, so they are written in their own transaction and
 * only while the caller's and the project's refusal allowances last — no unauthenticated caller
 * grows the log without bound (the refusal itself happens either way).
 */
export function projectEvents(deps: { db: Db; clock: Clock; secretBox: SecretBox; countries: CountryLookup; projectId: string }) {
  const { db, clock, secretBox, countries, projectId } = deps;

  async function write(tx: Db, origin: EventOrigin, event: EndUserEvent): Promise<void> {
    const at = clock.now();
    const country = countries.countryOf(origin.ip);
    await insertAuditEvent(tx, {
      projectId,
      createdAt: at,
      userId: event.userId,
      deviceName: event.deviceName ?? null,
      scope: event.scope,
      eventStatus: event.status,
      ip: origin.ip,
      country,
      clientId: origin.clientId,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
      details: { action: event.action, ...event.details },
    });
    if (event.usage) await countUsage(tx, { projectId, key: event.usage, at, country });
  }

  const bucket = (parts: string[]) => secretBox.hmac('rate-limit', ['event-refusals', projectId, ...parts].join('\n'));

  return {
    record: write,

    /** An event whose change is not in a transaction of ours (a login the provider is about to save). */
    async recordNow(origin: EventOrigin, event: EndUserEvent): Promise<void> {
      await db.transaction((tx) => write(tx, origin, event));
    },

    /** Answers whether the event was written (false: an allowance is used up). */
    async refusal(origin: EventOrigin, event: EndUserEvent): Promise<boolean> {
      const client = rateLimitKeyOf(origin.ip ?? '');
      const refused = await hitAll(
        db,
        [
          { name: 'client', bucket: bucket(['client', client]), max: REFUSALS_PER_CLIENT, windowMs: REFUSALS_WINDOW_MS },
          { name: 'project', bucket: bucket(['project']), max: REFUSALS_PER_PROJECT, windowMs: REFUSALS_WINDOW_MS },
        ],
        clock.now(),
      );
      if (refused) return false;
      await db.transaction((tx) => write(tx, origin, event));
      return true;
    },

    countryOf: (ip: string | null) => countries.countryOf(ip),
  };
}

export type ProjectEvents = ReturnType<typeof projectEvents>;
