import type { Webhook, WebhookBody } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** PUT projects/{project}/webhooks/{webhook} with If-Match (a change saved meanwhile elsewhere is 412, and read again). */
export function useSaveWebhook(projectId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, body }: { current: Tagged<Webhook>; body: WebhookBody }) =>
      requestTagged(api.updateWebhook, { params: { project: projectId, webhook: webhookId }, body, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(webhooksKeys.webhook(projectId, webhookId), saved);
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.webhooks(projectId), exact: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: webhooksKeys.webhook(projectId, webhookId) });
    },
  });
}
