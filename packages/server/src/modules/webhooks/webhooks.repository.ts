import type { Webhook, WebhookDelivery } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import type { Versioned } from '../../http/etag.ts';
import { iso } from '../../db/rows.ts';

// A project's webhook endpoints and their outbox (migration 0031, docs/decisions/0039).

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

/** Deletes the endpoint with its messages (foreign key). */
export async function deleteEndpoint(tx: Db, projectId: string, id: string): Promise<void> {
  await tx.query('DELETE FROM webhook_endpoints WHERE project_id = $1 AND id = $2', [projectId, id]);
}

const DELIVERY = `id, event_type AS "eventType", created_at AS "createdAt", status, attempts, last_status AS "lastStatus", last_ms AS "lastMs",
  last_reason AS "lastReason", delivered_at AS "deliveredAt", next_attempt_at AS "nextAttemptAt", payload`;

interface DeliveryRow extends Omit<WebhookDelivery, 'createdAt' | 'deliveredAt' | 'nextAttemptAt'> {
  createdAt: Date;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

const deliveryFromRow = (r: DeliveryRow): WebhookDelivery => ({
  ...r,
  createdAt: iso(r.createdAt),
  deliveredAt: r.deliveredAt && iso(r.deliveredAt),
  nextAttemptAt: r.nextAttemptAt && iso(r.nextAttemptAt),
});

/** The endpoint's newest messages first (webhook_messages_log_idx). */
export async function deliveriesOf(db: Db, projectId: string, endpointId: string, limit: number): Promise<WebhookDelivery[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY} FROM webhook_messages WHERE project_id = $1 AND endpoint_id = $2 ORDER BY created_at DESC, id DESC LIMIT $3`,
    [projectId, endpointId, limit],
  );
  return rows.map(deliveryFromRow);
}

/** Queues the message again, as it was (same id and body: the receiver may have it already), first in its endpoint's order. */
export async function requeue(tx: Db, projectId: string, endpointId: string, id: string, now: Date): Promise<WebhookDelivery | null> {
  const { rows } = await tx.query<DeliveryRow>(
    `UPDATE webhook_messages SET status = 'pending', attempts = 0, next_attempt_at = $4, delivered_at = NULL
      WHERE project_id = $1 AND endpoint_id = $2 AND id = $3 AND status <> 'pending' RETURNING ${DELIVERY}`,
    [projectId, endpointId, id, now],
  );
  return rows[0] ? deliveryFromRow(rows[0]) : null;
}

/** A message of its own to one endpoint (the test event). */
export async function insertMessage(
  tx: Db,
  m: { projectId: string; endpointId: string; id: string; eventType: string; payload: string; now: Date },
): Promise<WebhookDelivery> {
  const { rows } = await tx.query<DeliveryRow>(
    `INSERT INTO webhook_messages (project_id, endpoint_id, id, event_type, payload, created_at, status, next_attempt_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'pending', $6) RETURNING ${DELIVERY}`,
    [m.projectId, m.endpointId, m.id, m.eventType, m.payload, m.now],
  );
  return deliveryFromRow(rows[0] as DeliveryRow);
}

/** Erasure (docs/decisions/0038): every message that names the person goes, pending or sent. */
export async function deleteMessagesOf(tx: Db, projectId: string, identity: string): Promise<void> {
  await tx.query('DELETE FROM webhook_messages WHERE project_id = $1 AND subject = $2', [projectId, identity]);
}

/** The delivery log keeps a week: messages delivered or given up before `before` go. */
export async function pruneDeliveries(db: Db, before: Date): Promise<void> {
  await db.query(`DELETE FROM webhook_messages WHERE status <> 'pending' AND created_at < $1`, [before]);
}
