import { api } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';
import { useTaggedSave } from '../../../lib/use-api.ts';

/** spec §7: PUT projects/{project}/issuer with If-Match; a stale version (412) reads it again. */
export function useSaveIssuer(projectId: string) {
  const params = { project: projectId };
  return useTaggedSave(api.getIssuer, api.updateIssuer, params, [
    // The project's version moved with it (the settings pages read the project with its ETag).
    { queryKey: readKey(api.getProject, { params }, true) },
    { queryKey: resourceKey(api.listSettingsHistory, params) },
  ]);
}
