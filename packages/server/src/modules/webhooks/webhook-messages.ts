import { DomainError, WEBHOOK_TEST_EVENT, type WebhookDeliveries, type WebhookDelivery as Delivery } from '@latchkey/domain';
import { randomUUID } from 'node:crypto';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { lockEndpoint, type WebhooksServiceDeps } from './webhook-endpoints.ts';
import { deliveriesOf, findEndpoint, insertMessage, requeue } from './webhooks.repository.ts';

/** What an endpoint is sent, as the console sees it: a test message, the delivery log, a re-send. */
export function createWebhookMessages({ db, clock, audit, queued = () => undefined }: WebhooksServiceDeps) {
  return {
    /** Sends `webhook.test` to the endpoint, after what it already waits to send (enabled endpoints only). */
    async test(actor: Actor, projectId: string, id: string): Promise<Delivery> {
      const answer = await db.transaction(async (tx) => {
        const endpoint = await lockEndpoint(tx, projectId, id);
        if (!endpoint.value.enabled) throw new DomainError('conflict', 'This webhook is disabled: enable it to send it events');
        const now = clock.now();
        const messageId = `msg_${randomUUID()}`;
        const payload = JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { projectId, webhookId: id } });
        const message = await insertMessage(tx, { projectId, endpointId: id, id: messageId, eventType: WEBHOOK_TEST_EVENT, payload, now });
        await audit(tx, { actor, action: 'webhook.test', result: 'success', projectId, details: { webhookId: id, messageId } });
        return message;
      });
      queued();
      return answer;
    },

    async deliveries(projectId: string, id: string, limit: number): Promise<WebhookDeliveries> {
      if (!(await findEndpoint(db, projectId, id))) throw notFound('No such webhook in this project');
      return { list: await deliveriesOf(db, projectId, id, limit) };
    },

    /** Sends a delivered or given-up message again, as it was (the re-send button of the log). */
    async resend(actor: Actor, projectId: string, id: string, messageId: string): Promise<Delivery> {
      const answer = await db.transaction(async (tx) => {
        await lockEndpoint(tx, projectId, id);
        const message = await requeue(tx, projectId, id, messageId, clock.now());
        if (!message) throw notFound('No such delivery of this webhook, or it is still pending');
        await audit(tx, { actor, action: 'webhook.resend', result: 'success', projectId, details: { webhookId: id, messageId } });
        return message;
      });
      queued();
      return answer;
    },
  };
}
