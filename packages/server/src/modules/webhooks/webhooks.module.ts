import { webhooksApi } from '@latchkey/domain';
import { apiModule } from '../api-module.ts';
import { createWebhooksService } from './webhooks.service.ts';

/** Issue 24 "Webhooks". */
export default apiModule(webhooksApi, {
  services: ({ db, clock, audit, secretBox, outgoing, webhookQueued }) =>
    createWebhooksService({ db, clock, audit, secretBox, outgoing, queued: webhookQueued }),
  endpoints: (webhooks) => ({
    listWebhooks: async ({ params }) => webhooks.list(params.project),
    getWebhook: async ({ params }) => webhooks.get(params.project, params.webhook),
    createWebhook: async ({ params, body, actor }) => webhooks.create(actor(), params.project, body),
    updateWebhook: async ({ params, body, actor, ifMatch }) => webhooks.update(actor(), params.project, params.webhook, body, ifMatch),
    deleteWebhook: async ({ params, actor }) => webhooks.remove(actor(), params.project, params.webhook),
    testWebhook: async ({ params, actor }) => webhooks.test(actor(), params.project, params.webhook),
    listWebhookDeliveries: async ({ params, query }) => webhooks.deliveries(params.project, params.webhook, query.limit),
    resendWebhookDelivery: async ({ params, actor }) => webhooks.resend(actor(), params.project, params.webhook, params.delivery),
  }),
});
