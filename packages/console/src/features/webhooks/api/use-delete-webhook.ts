import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/** DELETE projects/{project}/webhooks/{webhook}. */
export function useDeleteWebhook(projectId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => request(api.deleteWebhook, { params: { project: projectId, webhook: webhookId } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: webhooksKeys.webhook(projectId, webhookId) });
      void queryClient.invalidateQueries({ queryKey: webhooksKeys.webhooks(projectId) });
    },
  });
}
