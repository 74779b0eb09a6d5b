/** The server state of the webhooks feature cached by react-query: its keys, so invalidations match reads. */
export const webhooksKeys = {
  webhooks: (projectId: string) => ['projects', projectId, 'webhooks'] as const,
  webhook: (projectId: string, webhookId: string) => ['projects', projectId, 'webhooks', 'one', webhookId] as const,
  deliveries: (projectId: string, webhookId: string) => ['projects', projectId, 'webhooks', 'deliveries', webhookId] as const,
};
