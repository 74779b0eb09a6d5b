import type { Project, ProjectSettings } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey, resourceKey } from '../../../lib/api/query-key.ts';

/**
 * spec §7: PUT projects/{id} with the whole project and If-Match (the version the page read). The
 * answer replaces the page's document and the layout's project (name, logo, banner); a stale
 * version (412) reads the document again.
 */
export function useSaveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, settings }: { current: Tagged<Project>; settings: ProjectSettings }) =>
      requestTagged(api.updateProject, { params: { project: current.data.id }, body: { ...settings, id: current.data.id }, ifMatch: current.etag }),
    onSuccess: (saved) => {
      const params = { project: saved.data.id };
      queryClient.setQueryData(readKey(api.getProject, { params }, true), saved);
      queryClient.setQueryData(readKey(api.getProject, { params }), saved.data);
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listSettingsHistory, params) });
      // Every account's project list (a project's name and logo show there).
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listAccountProjects) });
    },
    onError: (error, { current }) => {
      if (isApiError(error) && error.status === 412)
        void queryClient.invalidateQueries({ queryKey: readKey(api.getProject, { params: { project: current.data.id } }, true) });
    },
  });
}
