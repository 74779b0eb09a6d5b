import type { Webhook, WebhookBody } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey } from '../../../lib/api/query-key.ts';

/** PUT projects/{project}/webhooks/{webhook} with If-Match (a change saved meanwhile elsewhere is 412, and read again). */
export function useSaveWebhook(projectId: string, webhookId: string) {
  const queryClient = useQueryClient();
  const params = { project: projectId, webhook: webhookId };
  const key = readKey(api.getWebhook, { params }, true);
  return useMutation({
    mutationFn: ({ current, body }: { current: Tagged<Webhook>; body: WebhookBody }) =>
      requestTagged(api.updateWebhook, { params, body, ifMatch: current.etag }),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      // The list alone (exact): not the page's own reads under it, which the answer has just replaced.
      void queryClient.invalidateQueries({ queryKey: readKey(api.listWebhooks, { params }), exact: true });
    },
    onError: (error) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
