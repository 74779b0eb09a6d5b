import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { webhooksKeys } from './query-keys.ts';

/**
 * POST projects/{project}/webhooks/{webhook}/test (`message` undefined), or …/deliveries/{message}/resend:
 * a message queued for the endpoint; the log is read again.
 */
export function useSendWebhook(projectId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (message: string | undefined) =>
      message === undefined
        ? request(api.testWebhook, { params: { project: projectId, webhook: webhookId } })
        : request(api.resendWebhookDelivery, { params: { project: projectId, webhook: webhookId, delivery: message } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: webhooksKeys.deliveries(projectId, webhookId) }),
  });
}
