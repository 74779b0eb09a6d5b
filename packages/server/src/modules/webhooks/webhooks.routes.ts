import type { FastifyInstance } from 'fastify';
import { webhooksApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { WebhooksService } from './webhooks.service.ts';

/** Issue 24 "Webhooks". */
export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhooksService): void {
  registerEndpoint(app, webhooksApi.listWebhooks, async ({ params }) => webhooks.list(params.project));
  registerEndpoint(app, webhooksApi.getWebhook, async ({ params }) => webhooks.get(params.project, params.webhook));
  registerEndpoint(app, webhooksApi.createWebhook, async ({ params, body, actor }) => webhooks.create(actor(), params.project, body));
  registerEndpoint(app, webhooksApi.updateWebhook, async ({ params, body, actor, ifMatch }) =>
    webhooks.update(actor(), params.project, params.webhook, body, ifMatch),
  );
  registerEndpoint(app, webhooksApi.deleteWebhook, async ({ params, actor }) => webhooks.remove(actor(), params.project, params.webhook));
  registerEndpoint(app, webhooksApi.testWebhook, async ({ params, actor }) => webhooks.test(actor(), params.project, params.webhook));
  registerEndpoint(app, webhooksApi.listWebhookDeliveries, async ({ params, query }) =>
    webhooks.deliveries(params.project, params.webhook, query.limit),
  );
  registerEndpoint(app, webhooksApi.resendWebhookDelivery, async ({ params, actor }) =>
    webhooks.resend(actor(), params.project, params.webhook, params.delivery),
  );
}
