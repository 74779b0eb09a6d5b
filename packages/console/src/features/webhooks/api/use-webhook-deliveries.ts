import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** GET projects/{project}/webhooks/{webhook}/deliveries, read again every few seconds while pending ones wait. */
export function useWebhookDeliveries(projectId: string, webhookId: string) {
  return useQuery({
    queryKey: webhooksKeys.deliveries(projectId, webhookId),
    queryFn: ({ signal }) => request(api.listWebhookDeliveries, { params: { project: projectId, webhook: webhookId }, query: { limit: 50 }, signal }),
    refetchInterval: (query) => (query.state.data?.list.some((d) => d.status === 'pending') ? 3000 : false),
  });
}
