import { createWebhookEndpoints, type WebhooksServiceDeps } from './webhook-endpoints.ts';
import { createWebhookMessages } from './webhook-messages.ts';

export type { WebhooksServiceDeps } from './webhook-endpoints.ts';

/**
 * A project's webhook endpoints (issue 24, docs/decisions/0039), administered like its settings:
 * each change in one transaction with its audit event, refused in a closed project (spec §4). The
 * endpoints themselves (webhook-endpoints.ts) and what they are sent (webhook-messages.ts).
 */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  return { ...createWebhookEndpoints(deps), ...createWebhookMessages(deps) };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
