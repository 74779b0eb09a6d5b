import type { WebhookBody } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** POST projects/{project}/webhooks: the endpoint and its secret, shown once. */
export function useCreateWebhook(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: WebhookBody) => request(api.createWebhook, { params: { project: projectId }, body }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.webhooks(projectId) }),
  });
}
