import { createHmac, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import { insertAuditEvent, WEBHOOK_KIND } from '../../events/audit-events.repository.ts';
import type { OutboxKind } from '../../outbox/outbox.ts';
import { forgetPendingWhere } from '../../outbox/outbox.repository.ts';
import {
  ENDPOINT_REMOVED,
  endpointAnswered,
  endpointFailed,
  ENDPOINT_TO_SEND,
  type EndpointToSend,
  previousPendingMessages,
  prunePreviousLog,
  SENDABLE,
} from './webhooks.repository.ts';

/**
 * Webhook delivery (issue 24, docs/decisions/0039): webhook messages are messages of the outbox
 * (docs/decisions/0045), sent at least once, in order per endpoint, signed per Standard Webhooks.
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
export const WEBHOOK_DISABLE_AFTER_MS = 24 * 3_600_000;
/** How long the delivery log keeps what was delivered or given up. */
export const WEBHOOK_LOG_DAYS = 7;

export interface WebhookKindDeps {
  clock: Clock;
  secretBox: SecretBox;
}

/**
 * Webhook messages as messages of the outbox (outbox/outbox.ts): each endpoint's in order, only
 * while it is enabled (and after any older message the previous version still holds for it, during
 * a rollover); a JSON POST signed per Standard Webhooks, any 2xx delivers it, anything else is
 * asked again on WEBHOOK_RETRY_DELAYS_MS; the endpoint's health follows (disabled after a day of
 * failures); the log keeps a week.
 */
export function webhookKind({ clock, secretBox }: WebhookKindDeps): OutboxKind {
  return {
    name: WEBHOOK_KIND,
    retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS,
    ordered: true,
    logDays: WEBHOOK_LOG_DAYS,
    failedReason: 'send_failed',
    claimable: SENDABLE,
    context: ENDPOINT_TO_SEND,
    async request(m) {
      const endpoint = m.context as EndpointToSend | null;
      if (!endpoint) return { giveUp: 'endpoint_removed' };
      const secret = secretBox.open(endpoint.secret_sealed, secretContext(m.projectId, m.recipient));
      return { url: endpoint.url, body: m.payload, contentType: 'application/json', headers: webhookHeaders(secret, m.id, clock.now(), m.payload) };
    },
    verdict: (status) => (status >= 200 && status < 300 ? 'delivered' : 'retry'),
    /**
     * The endpoint's health: a success clears its failing time, a failure starts it, and one that
     * has failed for a day is disabled, with why, and an event in the project's audit log.
     */
    async settled(tx, m, outcome) {
      if (outcome.delivered) return endpointAnswered(tx, m.projectId, m.recipient);
      const now = clock.now();
      const why = outcome.status ? `HTTP ${outcome.status}` : outcome.reason;
      const endpoint = await endpointFailed(tx, { projectId: m.projectId, id: m.recipient, now, disableAfterMs: WEBHOOK_DISABLE_AFTER_MS, why });
      if (endpoint?.disabledNow) {
        await insertAuditEvent(tx, {
          projectId: m.projectId,
          createdAt: now,
          userId: null,
          deviceName: null,
          scope: 'console',
          eventStatus: 'disabled',
          details: { action: 'webhook.disabled', webhookId: m.recipient, reason: why },
        });
      }
    },
    previous: previousPendingMessages,
    async housekeeping(db, now) {
      await prunePreviousLog(db, new Date(now.getTime() - WEBHOOK_LOG_DAYS * 86_400_000));
      // An event written as its endpoint was being removed may have queued a message for it.
      await forgetPendingWhere(db, WEBHOOK_KIND, ENDPOINT_REMOVED);
    },
  };
}
