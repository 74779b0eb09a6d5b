import type { Endpoint, ExportFormat, ResponseOf } from '@latchkey/domain';
import { useQuery } from '@tanstack/react-query';
import { download } from '../api/download.ts';
import { request, type ApiRoute } from '../api/index.ts';
import { readKey } from '../api/query-key.ts';
import { declaredFilterQuery, declaredListQuery, type DeclaredList } from './declared-list.ts';
import type { ListState } from './list-state.ts';
import { exportDirection, useRangedList, type ExportRun, type RangedPage } from './use-ranged-list.ts';

// A declared list's calls (issue 21): its page and, for a ranged list, its export, with the query
// the declaration gives (declared-list.ts), cached under the entry's key (api/query-key.ts). A
// feature's page names its endpoints.

type ProjectRoute<E extends Endpoint> = ApiRoute<E>;

/** A list of bounded size (applications, accounts): one page, the previous rows kept while the next loads. */
export function listCalls<L extends Endpoint>(p: { declared: DeclaredList; list: ProjectRoute<L> }) {
  return function useDeclaredList(projectId: string, state: ListState) {
    const query = declaredListQuery(p.declared, state);
    return useQuery({
      queryKey: readKey(p.list, { params: { project: projectId }, query }),
      queryFn: ({ signal }) => request(p.list, { params: { project: projectId }, query, signal } as never) as Promise<ResponseOf<L>>,
      // While a new page or filter loads, the previous rows of the same project stay on screen.
      placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === projectId ? previous : undefined),
    });
  };
}

/**
 * A ranged list (devices, audit events): its pages (each after the page before's cursor) and its
 * export, the list's filter as a file in created-at order — the list's direction when it is sorted
 * by date, else the declared default.
 */
export function rangedListCalls<L extends Endpoint, X extends Endpoint>(p: {
  declared: DeclaredList;
  name: string;
  list: ProjectRoute<L>;
  export: ProjectRoute<X>;
}) {
  type Page = ResponseOf<L>;
  type Item = Page extends RangedPage<infer T> ? T : never;
  return {
    useList(projectId: string, state: ListState) {
      return useRangedList<ReturnType<typeof declaredListQuery>, Item>({
        projectId,
        query: declaredListQuery(p.declared, state),
        keyOf: (query) => readKey(p.list, { params: { project: projectId }, query }),
        load: (query, signal) => request(p.list, { params: { project: projectId }, query, signal } as never) as Promise<RangedPage<Item>>,
      });
    },
    exportFile(projectId: string, state: ListState, format: ExportFormat, options: ExportRun) {
      return download(p.export, {
        params: { project: projectId },
        query: { format, direction: exportDirection(state, p.declared.defaultSort.direction), ...declaredFilterQuery(p.declared, state.filters) },
        fallbackName: `${p.name}-${projectId}.${format}`,
        ...options,
      } as never);
    },
  };
}
