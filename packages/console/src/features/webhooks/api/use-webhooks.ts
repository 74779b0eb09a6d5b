import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** GET projects/{project}/webhooks. */
export function useWebhooks(projectId: string) {
  return useQuery({
    queryKey: webhooksKeys.webhooks(projectId),
    queryFn: ({ signal }) => request(api.listWebhooks, { params: { project: projectId }, signal }),
  });
}
