import { skipToken } from '@tanstack/react-query';
import { isImportUnderWay } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { useApiQuery } from '../../../lib/use-api.ts';

/** How often the page reads an import's progress while one is under way (uploading, queued or running). */
export const PROGRESS_EVERY_MS = 1000;

/**
 * GET projects/{project}/user-imports: the latest imports, read again every second while one is
 * under way, and no more once none is (the job runs on the server: the page may be left and come back to).
 */
export function useUserImports(projectId: string) {
  return useApiQuery(
    api.listUserImports,
    { params: { project: projectId } },
    { refetchInterval: (query) => (query.state.data?.items.some((i) => isImportUnderWay(i.status)) ? PROGRESS_EVERY_MS : false) },
  );
}

/** GET projects/{project}/user-imports/{import}: one import's report (its refused lines), once opened. */
export function useUserImportReport(projectId: string, importId: string | null) {
  return useApiQuery(api.getUserImport, importId ? { params: { project: projectId, import: importId } } : skipToken);
}
