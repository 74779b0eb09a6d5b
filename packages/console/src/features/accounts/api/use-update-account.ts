import { api } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';
import { useTaggedSave } from '../../../lib/use-api.ts';

/** spec §7: PUT projects/{project}/accounts/{id} with its permissions and status, If-Match; a stale version (412) reads it again. */
export function useUpdateAccount(projectId: string, accountId: string) {
  const params = { project: projectId, account: accountId };
  return useTaggedSave(api.getProjectAccount, api.updateAccount, params, [{ queryKey: resourceKey(api.listAccounts, params) }]);
}
