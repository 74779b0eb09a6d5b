import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { OutgoingFailure, OutgoingRefusal, type OutgoingClient } from '../../http/outgoing.ts';
import { insertAuditEvent } from '../../events/audit-events.repository.ts';
import { polledRounds } from '../../db/polled-rounds.ts';

/**
 * Webhook delivery (issue 24, docs/decisions/0039): any instance sends what the outbox
 * (webhook_messages) holds, at least once, in order per endpoint, signed per Standard Webhooks.
 */

/** A new endpoint's signing secret: `whsec_` and 24 random bytes in base64 (Standard Webhooks' form). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** What a secret is sealed to: its endpoint's row. */
export const secretContext = (projectId: string, endpointId: string) => `webhook_endpoints:${projectId}:${endpointId}`;

/**
 * The Standard Webhooks headers of one attempt: `webhook-signature` is `v1,` and the base64
 * HMAC-SHA256, under the secret's bytes, of `{id}.{timestamp}.{body}` (timestamp in seconds).
 */
export function webhookHeaders(secret: string, id: string, timestamp: Date, body: string): Record<string, string> {
  const seconds = Math.floor(timestamp.getTime() / 1000);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${seconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${signature}` };
}

/**
 * Soon at first (an endpoint restarting is reached again within the first minute), then backing
 * off to a day: eleven attempts over about two days. An endpoint failing for a day is disabled
 * (WEBHOOK_DISABLE_AFTER_MS), which stops it sooner.
 */
export const WEBHOOK_RETRY_DELAYS_MS = [
  5_000,
  30_000,
  2 * 60_000,
  10 * 60_000,
  30 * 60_000,
  3_600_000,
  3 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3_600_000;
/** A claimed message is another instance's again after this long (its holder stopped mid-delivery). */
export const WEBHOOK_LEASE_MS = 60_000;
/** How often each instance looks for due messages. */
export const WEBHOOK_POLL_MS = 1_000;
const BATCH = 20;

interface Claimed {
  project_id: string;
  endpoint_id: string;
  id: string;
  payload: string;
  attempts: number;
  created_at: Date;
  url: string;
  secret_sealed: string;
}

type Outcome = { delivered: true; status: number; ms: number } | { delivered: false; reason: string; status?: number; ms?: number; final: boolean };

export interface WebhookDeliveryDeps {
  db: Db;
  clock: Clock;
  outgoing: OutgoingClient;
  secretBox: SecretBox;
  warn(error: unknown): void;
}

export function createWebhookDelivery(deps: WebhookDeliveryDeps) {
  const { db, clock, outgoing, secretBox } = deps;

  /**
   * Takes, for a lease, the first pending message of each enabled endpoint when it is due: a
   * message waits for every older one of its endpoint (order), and the attempt count it raises —
   * only if no other instance raised it first — fences what this instance writes after (settle).
   */
  async function claim(): Promise<Claimed[]> {
    const now = clock.now();
    const { rows } = await db.query<Claimed>(
      `WITH heads AS (
         SELECT DISTINCT ON (m.project_id, m.endpoint_id) m.project_id, m.endpoint_id, m.id, m.attempts, m.next_attempt_at
           FROM webhook_messages m JOIN webhook_endpoints w ON w.project_id = m.project_id AND w.id = m.endpoint_id AND w.enabled
          WHERE m.status = 'pending'
          ORDER BY m.project_id, m.endpoint_id, m.created_at, m.id
       ), due AS (SELECT * FROM heads WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT $3)
       UPDATE webhook_messages m SET attempts = m.attempts + 1, next_attempt_at = $2
         FROM due, webhook_endpoints w
        WHERE m.project_id = due.project_id AND m.endpoint_id = due.endpoint_id AND m.id = due.id
          AND m.status = 'pending' AND m.attempts = due.attempts
          AND w.project_id = m.project_id AND w.id = m.endpoint_id
       RETURNING m.project_id, m.endpoint_id, m.id, m.payload, m.attempts, m.created_at, w.url, w.secret_sealed`,
      [now, new Date(now.getTime() + WEBHOOK_LEASE_MS), BATCH],
    );
    return rows;
  }

  async function attempt(m: Claimed): Promise<Outcome> {
    if (m.attempts > WEBHOOK_MAX_ATTEMPTS) return { delivered: false, reason: 'attempts_exhausted', final: true };
    const final = m.attempts >= WEBHOOK_MAX_ATTEMPTS;
    const secret = secretBox.open(m.secret_sealed, secretContext(m.project_id, m.endpoint_id));
    try {
      const answer = await outgoing.post(m.url, m.payload, 'application/json', webhookHeaders(secret, m.id, clock.now(), m.payload));
      if (answer.status >= 200 && answer.status < 300) return { delivered: true, ...answer };
      return { delivered: false, status: answer.status, ms: answer.ms, reason: 'unexpected_status', final };
    } catch (error) {
      // The log says why in a word; the address and the system's text are not the project's to read.
      if (error instanceof OutgoingRefusal) return { delivered: false, reason: error.reason, final: true };
      if (error instanceof OutgoingFailure) return { delivered: false, reason: error.reason, final };
      throw error;
    }
  }

  /**
   * Writes what the attempt came to, while the message is still this attempt's: delivered, given
   * up, or due again after its delay; and the endpoint's health — a success clears its failing
   * time, a failure starts it, and one that has failed for a day is disabled, with why, and an
   * event in the project's audit log.
   */
  async function settle(m: Claimed, outcome: Outcome): Promise<void> {
    const now = clock.now();
    const done = outcome.delivered || outcome.final;
    const delay = WEBHOOK_RETRY_DELAYS_MS[Math.min(m.attempts, WEBHOOK_RETRY_DELAYS_MS.length) - 1] ?? WEBHOOK_LEASE_MS;
    await db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `UPDATE webhook_messages SET status = $4, next_attempt_at = $5, last_status = $6, last_ms = $7, last_reason = $8, delivered_at = $9
          WHERE project_id = $1 AND endpoint_id = $2 AND id = $3 AND attempts = $10 AND status = 'pending' RETURNING 1`,
        [
          m.project_id,
          m.endpoint_id,
          m.id,
          outcome.delivered ? 'delivered' : done ? 'failed' : 'pending',
          done ? null : new Date(now.getTime() + delay),
          outcome.status ?? null,
          outcome.ms ?? null,
          outcome.delivered ? null : outcome.reason,
          outcome.delivered ? now : null,
          m.attempts,
        ],
      );
      if (rows.length === 0) return;
      if (outcome.delivered) {
        await tx.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE project_id = $1 AND id = $2 AND failing_since IS NOT NULL', [
          m.project_id,
          m.endpoint_id,
        ]);
        return;
      }
      const { rows: disabled } = await tx.query<{ failing_since: Date; enabled: boolean }>(
        `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $3),
                enabled = CASE WHEN coalesce(failing_since, $3) <= $4 THEN false ELSE enabled END,
                disabled_reason = CASE WHEN coalesce(failing_since, $3) <= $4
                                       THEN 'Every delivery failed for a day (the last: ' || $5 || '); enable it again once it answers'
                                       ELSE disabled_reason END
          WHERE project_id = $1 AND id = $2 RETURNING failing_since, enabled`,
        [
          m.project_id,
          m.endpoint_id,
          now,
          new Date(now.getTime() - WEBHOOK_DISABLE_AFTER_MS),
          outcome.status ? `HTTP ${outcome.status}` : outcome.reason,
        ],
      );
      const endpoint = disabled[0];
      if (endpoint && !endpoint.enabled && new Date(endpoint.failing_since).getTime() <= now.getTime() - WEBHOOK_DISABLE_AFTER_MS) {
        await insertAuditEvent(tx, {
          projectId: m.project_id,
          createdAt: now,
          userId: null,
          deviceName: null,
          scope: 'console',
          eventStatus: 'disabled',
          details: { action: 'webhook.disabled', webhookId: m.endpoint_id, reason: outcome.status ? `HTTP ${outcome.status}` : outcome.reason },
        });
      }
    });
  }

  const failure = (m: Claimed, error: unknown): Outcome => {
    deps.warn(error);
    return { delivered: false, reason: 'send_failed', final: m.attempts >= WEBHOOK_MAX_ATTEMPTS };
  };

  async function round(stopping: () => boolean): Promise<number> {
    let attempts = 0;
    while (!stopping()) {
      const claimed = await claim();
      if (claimed.length === 0) return attempts;
      attempts += claimed.length;
      await Promise.all(claimed.map(async (m) => settle(m, await attempt(m).catch((error: unknown) => failure(m, error)))));
    }
    return attempts;
  }

  const rounds = polledRounds({ round, pollMs: WEBHOOK_POLL_MS, warn: deps.warn });
  return { deliverDue: rounds.runNow, nudge: rounds.nudge, nudgeSoon: rounds.nudgeSoon, start: rounds.start, stop: rounds.stop };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
