import type { Webhook, WebhookDelivery } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import type { Versioned } from '../../http/etag.ts';
import { iso } from '../../db/rows.ts';
import { WEBHOOK_KIND } from '../../events/audit-events.repository.ts';
import {
  adopt,
  enqueue,
  forgetRecipient,
  forgetSubject,
  messagesTo,
  requeue as requeueMessage,
  type OutboxMessage,
} from '../../outbox/outbox.repository.ts';

// A project's webhook endpoints (migration 0031, docs/decisions/0039) and their messages in the
// outbox (migration 0033, docs/decisions/0045); during a rollover, also the previous version's
// webhook_messages, which this version only drains, reads in the log and forgets (a later version
// drops it).

const ENDPOINT = `id, url, event_types AS "eventTypes", enabled, description, created_at AS "createdAt",
  failing_since AS "failingSince", disabled_reason AS "disabledReason"`;

interface EndpointRow extends Omit<Webhook, 'createdAt' | 'failingSince'> {
  createdAt: Date;
  failingSince: Date | null;
}

const endpointFromRow = (r: EndpointRow): Webhook => ({ ...r, createdAt: iso(r.createdAt), failingSince: r.failingSince && iso(r.failingSince) });

export async function listEndpoints(db: Db, projectId: string): Promise<Webhook[]> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${ENDPOINT} FROM webhook_endpoints WHERE project_id = $1 ORDER BY created_at, id`, [
    projectId,
  ]);
  return rows.map(endpointFromRow);
}

export async function findEndpoint(db: Db, projectId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<Versioned<Webhook> | null> {
  const { rows } = await db.query<EndpointRow & { version: number }>(
    `SELECT ${ENDPOINT}, version FROM webhook_endpoints WHERE project_id = $1 AND id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [projectId, id],
  );
  return rows[0] ? versioned(rows[0]) : null;
}

function versioned({ version, ...row }: EndpointRow & { version: number }): Versioned<Webhook> {
  return { value: endpointFromRow(row), version };
}

export interface EndpointFields {
  url: string;
  eventTypes: readonly string[];
  enabled: boolean;
  description: string;
}

export async function insertEndpoint(
  tx: Db,
  e: EndpointFields & { projectId: string; id: string; secretSealed: string; now: Date },
): Promise<Webhook> {
  const { rows } = await tx.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (project_id, id, url, event_types, enabled, description, secret_sealed, created_at, updated_at)
     VALUES ($1, $2, $3, $4::text[], $5, $6, $7, $8, $8) RETURNING ${ENDPOINT}`,
    [e.projectId, e.id, e.url, e.eventTypes, e.enabled, e.description, e.secretSealed, e.now],
  );
  return endpointFromRow(rows[0] as EndpointRow);
}

/** Saves the endpoint and raises its version; enabling it again clears why it was disabled and since when it failed. */
export async function updateEndpoint(tx: Db, e: EndpointFields & { projectId: string; id: string; now: Date }): Promise<Versioned<Webhook>> {
  const { rows } = await tx.query<EndpointRow & { version: number }>(
    `UPDATE webhook_endpoints SET url = $3, event_types = $4::text[], enabled = $5, description = $6, updated_at = $7, version = version + 1,
            disabled_reason = CASE WHEN $5 THEN NULL ELSE disabled_reason END,
            failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END
      WHERE project_id = $1 AND id = $2 RETURNING ${ENDPOINT}, version`,
    [e.projectId, e.id, e.url, e.eventTypes, e.enabled, e.description, e.now],
  );
  return versioned(rows[0] as EndpointRow & { version: number });
}

/** Deletes the endpoint with its messages (the previous version's by foreign key). */
export async function deleteEndpoint(tx: Db, projectId: string, id: string): Promise<void> {
  await forgetRecipient(tx, { projectId, kind: WEBHOOK_KIND, recipient: id });
  await tx.query('DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2', [projectId, id]);
}

/**
 * SQL, a condition on `m` (an outbox message) under which a webhook message may be sent: its
 * endpoint is enabled, and the previous version holds no older message for it (in order per
 * endpoint during a rollover too; docs/decisions/0045).
 */
export const SENDABLE = `EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = m.project_id AND w.id = m.recipient AND w.enabled)
  AND NOT EXISTS (SELECT 1 FROM webhook_messages p
                   WHERE p.project_id = m.project_id AND p.endpoint_id = m.recipient AND p.status = 'pending'
                     AND (p.created_at, p.id) < (m.created_at, m.id))`;

/** SQL, a condition on `m`: its endpoint is gone. */
export const ENDPOINT_REMOVED = 'NOT EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.project_id = m.project_id AND w.id = m.recipient)';

/** Where a message goes and what signs it, read with its claim (OutboxKind.context). */
export interface EndpointToSend {
  url: string;
  secret_sealed: string;
}
export const ENDPOINT_TO_SEND = 'SELECT w.url, w.secret_sealed FROM webhook_endpoints w WHERE w.project_id = due.project_id AND w.id = due.recipient';

/** A delivery succeeded: the endpoint is not failing. */
export async function endpointAnswered(tx: Db, projectId: string, id: string): Promise<void> {
  await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE project_id = $1 AND id = $2 AND failing_since IS NOT NULL', [
    projectId,
    id,
  ]);
}

/**
 * A delivery failed: the endpoint is failing since now, unless it already was; failing for
 * `disableAfterMs` already, it is disabled, with why. Answers whether this disabled it.
 */
export async function endpointFailed(
  tx: Db,
  f: { projectId: string; id: string; now: Date; disableAfterMs: number; why: string },
): Promise<{ disabledNow: boolean } | null> {
  const since = new Date(f.now.getTime() - f.disableAfterMs);
  const { rows } = await tx.query<{ failing_since: Date; enabled: boolean }>(
    `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $3),
            enabled = CASE WHEN coalesce(failing_since, $3) <= $4 THEN false ELSE enabled END,
            disabled_reason = CASE WHEN coalesce(failing_since, $3) <= $4
                                   THEN 'Every delivery failed for a day (the last: ' || $5 || '); enable it again once it answers'
                                   ELSE disabled_reason END
      WHERE project_id = $1 AND id = $2 RETURNING failing_since, enabled`,
    [f.projectId, f.id, f.now, since, f.why],
  );
  const endpoint = rows[0];
  return endpoint ? { disabledNow: !endpoint.enabled && new Date(endpoint.failing_since).getTime() <= since.getTime() } : null;
}

const fromMessage = (m: OutboxMessage): WebhookDelivery => ({
  id: m.id,
  eventType: m.topic,
  createdAt: iso(m.createdAt),
  status: m.status,
  attempts: m.attempts,
  lastStatus: m.lastStatus,
  lastMs: m.lastMs,
  lastReason: m.lastReason,
  deliveredAt: m.deliveredAt && iso(m.deliveredAt),
  nextAttemptAt: m.nextAttemptAt && iso(m.nextAttemptAt),
  payload: m.payload,
});

/** The previous version's columns, as outbox messages' (outbox.repository.ts `adopt`). */
const PREVIOUS = `project_id, endpoint_id AS recipient, id, subject, event_type AS topic, payload, created_at, status, attempts, next_attempt_at,
  last_status, last_ms, last_reason, delivered_at`;

/** The endpoint's newest messages first: the outbox's and, during a rollover, the previous version's (each by its log index). */
export async function deliveriesOf(db: Db, projectId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  const current = await messagesTo(db, { projectId, kind: WEBHOOK_KIND, recipient: endpointId }, limit);
  const { rows: previous } = await db.query<OutboxMessage>(
    `SELECT project_id AS "projectId", endpoint_id AS recipient, id, subject, event_type AS topic, payload, created_at AS "createdAt", status,
            attempts, next_attempt_at AS "nextAttemptAt", last_status AS "lastStatus", last_ms AS "lastMs", last_reason AS "lastReason",
            delivered_at AS "deliveredAt"
       FROM webhook_messages WHERE project_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [projectId, endpointId, limit],
  );
  // Each list is newest first already: merged, not sorted again (ties keep the database's order).
  const merged: OutboxMessage[] = [];
  for (let i = 0, j = 0; merged.length < limit && (i < current.length || j < previous.length);) {
    const a = current[i];
    const b = previous[j];
    if (a && (!b || a.createdAt.getTime() >= b.createdAt.getTime())) {
      merged.push(a);
      i += 1;
    } else if (b) {
      merged.push(b);
      j += 1;
    }
  }
  return merged.map(fromMessage);
}

/**
 * Queues the message again, as it was (same id and body: the receiver may have it already), first
 * in its endpoint's order; one the previous version's log holds moves into the outbox to be sent.
 */
export async function requeue(tx: Db, projectId: string, endpointId: string, id: string, now: Date): Promise<WebhookDelivery | null> {
  const again = await requeueMessage(tx, { projectId, kind: WEBHOOK_KIND, recipient: endpointId, id }, now);
  if (again) return fromMessage(again);
  const [moved] = await adopt(tx, WEBHOOK_KIND, {
    sql: `DELETE FROM webhook_messages WHERE project_id = $1 AND endpoint_id = $2 AND id = $3 AND status <> 'pending'
          RETURNING project_id, endpoint_id AS recipient, id, subject, event_type AS topic, payload, created_at, 'pending' AS status,
                    0 AS attempts, $4::timestamptz AS next_attempt_at, last_status, last_ms, last_reason, NULL::timestamptz AS delivered_at`,
    params: [projectId, endpointId, id, now],
  });
  return moved ? fromMessage(moved) : null;
}

/** A message of its own to one endpoint (the test event). */
export async function insertMessage(
  tx: Db,
  m: { projectId: string; endpointId: string; id: string; eventType: string; payload: string; now: Date },
): Promise<WebhookDelivery> {
  const [queued] = await enqueue(tx, {
    projectId: m.projectId,
    kind: WEBHOOK_KIND,
    now: m.now,
    messages: [{ recipient: m.endpointId, id: m.id, subject: null, topic: m.eventType, payload: m.payload }],
  });
  return fromMessage(queued as OutboxMessage);
}

/**
 * Erasure (docs/decisions/0038): every message that names the person goes, pending or sent. `refs`:
 * what a message's subject holds of them (their id, their identity's pseudonym; docs/decisions/0046)
 * and, in the previous version's table, their identity.
 */
export async function deleteMessagesOf(tx: Db, projectId: string, refs: readonly string[], identity: string): Promise<void> {
  for (const subject of refs) await forgetSubject(tx, { projectId, kind: WEBHOOK_KIND, subject });
  await tx.query('DELETE FROM webhook_messages WHERE project_id = $1 AND subject = $2', [projectId, identity]);
}

/**
 * The previous version's pending messages once due (no instance holds them then), moved into the
 * outbox at each round during a rollover (docs/decisions/0045).
 */
export const previousPendingMessages = (now: Date) => ({
  sql: `DELETE FROM webhook_messages WHERE (project_id, endpoint_id, id) IN (
          SELECT project_id, endpoint_id, id FROM webhook_messages WHERE status = 'pending' AND next_attempt_at <= $1
           ORDER BY created_at LIMIT 1000 FOR UPDATE SKIP LOCKED)
        RETURNING ${PREVIOUS}`,
  params: [now],
});

/** The previous version's log keeps a week too: what it delivered or gave up before `before` goes. */
export async function prunePreviousLog(db: Db, before: Date): Promise<void> {
  await db.query(`DELETE FROM webhook_messages WHERE status <> 'pending' AND created_at < $1`, [before]);
}
