import type { AuditResult, Scope, UsageKey } from '@latchkey/domain';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { EventChange } from './audit-events.repository.ts';

/**
 * What an event stores for an identity that is no person of the project (a refusal, a code mailed
 * to an unknown address; docs/decisions/0046): a keyed hash of it, never the address. `anon-` and
 * 22 characters: never a sub (22 characters, randomToken(16)), an erasure's `deleted-…`, an email
 * (no `@`) or a user id (alphanumeric, no `-`). The audit filter hashes what the admin types the
 * same way, so the events are found by the address while the master key is the same.
 */
export function identityPseudonym(secretBox: SecretBox, projectId: string, identity: string): string {
  return `anon-${secretBox.hmac('event-identity', `${projectId}\n${identity.toLowerCase()}`).slice(0, 22)}`;
}

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

/** What an issuer's steps report: a project's issuer writes them to its audit log (events/project-events.ts). */
export interface IssuerEvents {
  /** Inside the transaction of the change it records. */
  record(tx: Db, origin: EventOrigin, event: EndUserEvent): Promise<void>;
  /**
   * The event and the change it records in one statement (no transaction needed): answers whether
   * it was written (false: the change was `required` and did not happen, so neither was written).
   */
  recordWith(db: Db, origin: EventOrigin, event: EndUserEvent, change: EventChange): Promise<boolean>;
  /** An event whose change is not in a transaction of ours (a login the provider is about to save). */
  recordNow(origin: EventOrigin, event: EndUserEvent): Promise<void>;
  /** What changes nothing, within the caller's allowance; answers whether it was written. */
  refusal(origin: EventOrigin, event: EndUserEvent): Promise<boolean>;
  /** ISO 3166-1 alpha-2 of a client address, ZZ unknown. */
  countryOf(ip: string | null): string;
}
