import { api } from '../../../lib/api/index.ts';
import { readKey } from '../../../lib/api/query-key.ts';
import { useTaggedSave } from '../../../lib/use-api.ts';

/** PUT projects/{project}/webhooks/{webhook} with If-Match (a change saved meanwhile elsewhere is 412, and read again). */
export function useSaveWebhook(projectId: string, webhookId: string) {
  const params = { project: projectId, webhook: webhookId };
  // The list alone (exact): not the page's own reads under it, which the answer has just replaced.
  return useTaggedSave(api.getWebhook, api.updateWebhook, params, [{ queryKey: readKey(api.listWebhooks, { params }), exact: true }]);
}
