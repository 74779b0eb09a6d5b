import { randomBytesPooled } from '../crypto.ts';
import { webhookEventTypeOf, type AuditResult, type EnrollmentKey, type UsageKey } from '@latchkey/domain';
import { prepared, type Db } from '../db/db.ts';
import { iso } from '../db/rows.ts';

/** One row of audit_events (migration 0010): spec §3 "Audit event" and what the details modal shows. */
export interface NewAuditEvent {
  /** null: an event of no project (stored as ''). */
  projectId: string | null;
  createdAt: Date;
  /**
   * spec "userID" as the event tells it (its webhook's `userID`): the end user's identity (their
   * email) or the console account acting.
   */
  userId: string | null;
  /**
   * Set when userId is an end user's identity (issue 35, docs/decisions/0046): the event stores
   * their person's id (project_users.id, the sub) while they are a person of the project, else
   * this — a keyed pseudonym of the identity (identityPseudonym) — so no event holds an address.
   * Unset: userId is stored as is (the console account acting, an erasure's pseudonym).
   */
  unknownAs?: string;
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

/**
 * outbox_messages.kind of a webhook message (modules/webhooks/webhook-delivery.ts declares the
 * kind): written here, in the statement of the event it tells of.
 */
export const WEBHOOK_KIND = 'webhook';

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
  const bytes = randomBytesPooled(16);
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
 * What an end user's event counts in the enrollment funnel (migration 0038, docs/decisions/0050):
 * its key in enrollment_daily (its day is the event's), and whether it is a fallback sign-in (the
 * person's fallback_sign_ins counts up with their last sign-in).
 */
export interface EnrollmentHit {
  key: EnrollmentKey;
  fallback?: boolean;
}

/**
 * Writes one event, in one statement (data-modifying CTEs) with what follows from it, so none of
 * these exists without the others, in one round trip:
 * - with `usage`, its counts in the usage rollups: the hour, the day and the day × country of its
 *   time (UTC);
 * - `signedIn` (the user's successful sign-in): the user's last sign-in (the users list, migration
 *   0030) moves to its time, with whether they hold an active passkey then, and a fallback sign-in
 *   counts in their fallback_sign_ins (migration 0038);
 * - with `enrollment`, its count in the enrollment funnel's daily rollup (migration 0038);
 * - when its kind is one webhooks tell of (webhookEventTypeOf), a message to each enabled endpoint of
 *   the project subscribed to it, in the outbox (migration 0033, docs/decisions/0039 and 0045): the
 *   body as it will be signed and sent.
 * Answers how many webhook messages it queued (their sender is nudged: webhooksQueued).
 */
export async function insertAuditEvent(db: Db, e: NewAuditEvent, usage?: UsageHit, signedIn = false, enrollment?: EnrollmentHit): Promise<number> {
  return (await insertAuditEventWith(db, e, usage, signedIn, undefined, enrollment)).queued;
}

/**
 * The change an event records, made by the event's own statement (its first data-modifying CTE,
 * named `name`): one round trip instead of a transaction's four (issue 38). `sql` writes the CTE's
 * body, its values as parameters through `param`. `required`: the event and all that follows from
 * it are written only when the CTE returned a row (a code consumed only once writes its exchange
 * once); `changed` then says whether it did.
 */
export interface EventChange {
  name: string;
  sql(param: (value: unknown) => string): string;
  required?: boolean;
}

/**
 * A statement of its own (its $1… are `values`) as the EventChange `name`: its parameters renumbered
 * into the event's statement, a value named twice passed once.
 */
export function changeOf(name: string, sql: string, values: readonly unknown[], required = false): EventChange {
  return {
    name,
    required,
    sql(param) {
      const named = new Map<number, string>();
      return sql.replace(/\$(\d+)/g, (_, n: string) => {
        const index = Number(n);
        let placeholder = named.get(index);
        if (placeholder === undefined) named.set(index, (placeholder = param(values[index - 1])));
        return placeholder;
      });
    },
  };
}

/**
 * insertAuditEvent, with the change it records in the same statement (EventChange): the enrollment
 * funnel's count too (docs/decisions/0050 and 0054), written only when a required change happened.
 */
export async function insertAuditEventWith(
  db: Db,
  e: NewAuditEvent,
  usage?: UsageHit,
  signedIn = false,
  change?: EventChange,
  enrollment?: EnrollmentHit,
): Promise<{ queued: number; changed: boolean }> {
  const id = eventId();
  const params: unknown[] = [
    e.projectId ?? '',
    e.createdAt,
    id,
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
  const next = (value: unknown) => `$${params.push(value)}`;
  // Everything below is written only when the required change happened.
  const only = change?.required ? `EXISTS (SELECT 1 FROM ${change.name})` : null;
  const andOnly = only ? ` AND ${only}` : '';
  // INSERT … VALUES, or INSERT … SELECT … WHERE the change happened (whose unknown-typed values need casts).
  const values = (list: string) => (only ? `SELECT ${list} WHERE ${only}` : `VALUES (${list})`);
  const effects: string[] = change ? [`${change.name} AS (${change.sql(next)})`] : [];
  // What user_id holds: the person's id when the identity is one of the project's people.
  const userRef =
    e.unknownAs !== undefined && e.userId !== null
      ? `coalesce((SELECT u.id FROM project_users u WHERE u.project_id = $1 AND u.identity_key = $4), ${next(e.unknownAs)})`
      : '$4';
  if (signedIn && e.projectId && e.userId) {
    const fallback = enrollment?.fallback ? ', fallback_sign_ins = fallback_sign_ins + 1' : '';
    // Whether they hold an active passkey as they sign in (a passkey made in an earlier statement of
    // this transaction included; one the event's own change makes is not seen by its snapshot):
    // the enrollment funnel's share of active users holding one (migration 0038).
    effects.push(`signed_in AS (UPDATE project_users SET last_sign_in_at = $2${fallback},
         passkey_at_sign_in = EXISTS (SELECT 1 FROM devices d WHERE d.project_id = $1 AND d.user_id = project_users.id AND NOT d.revoked)
       WHERE project_id = $1 AND identity_key = $4${andOnly})`);
  }
  if (enrollment && e.projectId) {
    const day = next(e.createdAt.toISOString().slice(0, 10));
    effects.push(`enrollment AS (
       INSERT INTO enrollment_daily AS f (project_id, day, key, count) ${values(`$1, ${day}::date, ${next(enrollment.key)}::text, 1`)}
       ON CONFLICT (project_id, day, key) DO UPDATE SET count = f.count + 1)`);
  }
  const type = e.projectId
    ? webhookEventTypeOf({ scope: e.scope, action: typeof e.details['action'] === 'string' ? e.details['action'] : undefined, result: e.eventStatus })
    : null;
  if (type) {
    const body = JSON.stringify({ type, timestamp: e.createdAt.toISOString(), data: webhookData(id, e) });
    effects.push(`webhook AS (
       INSERT INTO outbox_messages (project_id, kind, recipient, id, topic, payload, subject, created_at, status, next_attempt_at)
       SELECT $1, ${next(WEBHOOK_KIND)}, w.id, ${next(`msg_${id}`)}, ${next(type)}, ${next(body)}, ${userRef}, $2, 'pending', $2
         FROM webhook_endpoints w WHERE w.project_id = $1 AND w.enabled AND ${next(type)} = ANY(w.event_types)${andOnly} RETURNING 1)`);
  }
  if (usage) {
    const hour = next(new Date(Math.floor(e.createdAt.getTime() / 3_600_000) * 3_600_000));
    const key = next(usage.key);
    const day = next(e.createdAt.toISOString().slice(0, 10));
    const country = next(e.country ?? 'ZZ');
    effects.push(
      `hourly AS (
       INSERT INTO usage_hourly AS u (project_id, hour, key, count) ${values(`$1, ${hour}::timestamptz, ${key}, 1`)}
       ON CONFLICT (project_id, hour, key) DO UPDATE SET count = u.count + 1)`,
      `daily AS (
       INSERT INTO usage_daily AS u (project_id, day, key, count) ${values(`$1, ${day}::date, ${key}, 1`)}
       ON CONFLICT (project_id, day, key) DO UPDATE SET count = u.count + 1)`,
      `by_country AS (
       INSERT INTO usage_daily_country AS u (project_id, day, country, key, count) ${values(`$1, ${day}::date, ${country}, ${key}, 1`)}
       ON CONFLICT (project_id, day, country, key) DO UPDATE SET count = u.count + 1)`,
    );
  }
  const event = `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details)
     ${values(`$1::text, $2::timestamptz, $3::uuid, ${userRef}, $5::text, $6::text, $7::text, $8::text, $9::text, $10::text, $11::text, $12::jsonb`)}`;
  // The statement's text depends only on which effects it has (a handful of shapes, the sign-in's among
  // them), never on values: prepared (docs/decisions/0055).
  if (effects.length === 0) {
    await db.query(prepared(event), params);
    return { queued: 0, changed: true };
  }
  const { rows } = await db.query<{ queued: number }>(
    prepared(`WITH ${effects.join(', ')} ${event} RETURNING ${type ? '(SELECT count(*) FROM webhook)::int' : '0'} AS queued`),
    params,
  );
  return { queued: rows[0]?.queued ?? 0, changed: rows.length > 0 };
}

/** The event as a webhook's `data` tells it: the audit log's fields, by the audit list's names. */
function webhookData(id: string, e: NewAuditEvent) {
  return {
    id,
    projectId: e.projectId,
    createdAt: e.createdAt.toISOString(),
    userID: e.userId,
    deviceName: e.deviceName,
    scope: e.scope,
    eventStatus: e.eventStatus,
    ip: e.ip ?? null,
    country: e.country ?? null,
    clientId: e.clientId ?? null,
    userAgent: e.userAgent ?? null,
    details: e.details,
  };
}

/**
 * Erasure (GDPR art. 17; docs/decisions/0038): the events that name the person keep happening but
 * name them by `pseudonym` — in the userID column (which held their id, or the keyed pseudonym of
 * their identity for what happened before they were a person: `refs`, docs/decisions/0046) and in
 * any top-level detail that held their identity or their id — with no address, user agent or
 * device name, and no credential id of theirs (`credentials`: a detail that named one is null).
 * Rewritten through audit_events_user_idx; answers how many.
 */
export async function pseudonymiseEventsOf(
  tx: Db,
  e: { projectId: string; id: string; identity: string; refs: readonly string[]; pseudonym: string; credentials: readonly string[] },
): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `WITH renamed AS (UPDATE audit_events SET user_id = $3, ip = NULL, user_agent = NULL, device_name = NULL,
            details = (SELECT coalesce(jsonb_object_agg(k, CASE WHEN v = to_jsonb($2::text) OR v = to_jsonb($4::text) THEN to_jsonb($3::text)
                                                                 WHEN jsonb_typeof(v) = 'string' AND v #>> '{}' = ANY($5::text[]) THEN 'null'::jsonb
                                                                 ELSE v END), '{}'::jsonb)
                         FROM jsonb_each(details) AS d(k, v))
      WHERE project_id = $1 AND user_id = ANY($6::text[]) RETURNING 1)
     SELECT count(*)::int AS n FROM renamed`,
    [e.projectId, e.identity, e.pseudonym, e.id, e.credentials, e.refs],
  );
  return rows[0]?.n ?? 0;
}

/**
 * The events that name `identity` (as an earlier version stored an end user) name `pseudonym`
 * instead (migration 0034, docs/decisions/0046); through audit_events_user_idx.
 */
export async function renameEventUser(tx: Db, e: { projectId: string; identity: string; pseudonym: string }): Promise<void> {
  await tx.query('UPDATE audit_events SET user_id = $3 WHERE project_id = $1 AND user_id = $2', [e.projectId, e.identity, e.pseudonym]);
}

/**
 * Every audit event that names the user, oldest first, as the data export gives them (art. 15):
 * `refs` are what their events store (their id; the pseudonym of their identity, docs/decisions/0046).
 */
export async function eventsOfUser(db: Db, projectId: string, refs: readonly string[]): Promise<Array<Record<string, unknown>>> {
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
       FROM audit_events WHERE project_id = $1 AND user_id = ANY($2::text[]) ORDER BY created_at, id`,
    [projectId, refs],
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
