import { useQuery } from '@tanstack/react-query';
import { api, requestTagged } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** GET projects/{project}/webhooks/{webhook}, with its ETag (sent back as If-Match when it is saved). */
export function useWebhook(projectId: string, webhookId: string) {
  return useQuery({
    queryKey: webhooksKeys.webhook(projectId, webhookId),
    queryFn: ({ signal }) => requestTagged(api.getWebhook, { params: { project: projectId, webhook: webhookId }, signal }),
  });
}
