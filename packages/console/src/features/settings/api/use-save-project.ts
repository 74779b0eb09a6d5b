import type { Project, ProjectSettings } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { settingsKeys } from './query-keys.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

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
      queryClient.setQueryData(settingsKeys.projectDocument(saved.data.id), saved);
      queryClient.setQueryData(queryKeys.project(saved.data.id), saved.data);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.settingsHistory(saved.data.id) });
      void queryClient.invalidateQueries({ queryKey: ['accounts'] });
    },
    onError: (error, { current }) => {
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: settingsKeys.projectDocument(current.data.id) });
    },
  });
}
