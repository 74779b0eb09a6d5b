import {
  AUDIT_LIST_DEFAULT_SORT,
  AUDIT_RESULTS,
  AUDIT_SCOPES,
  AUDIT_SORT_FIELDS,
  type AuditResult,
  type AuditScope,
  type AuditSortField,
  type ExportFormat,
} from '@latchkey/domain';
import { api, download, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { toListQuery } from '../../../lib/list-state/list-state.ts';
import { dateRangeQuery, exportDirection, useRangedList, type ExportRun } from '../../../lib/list-state/use-ranged-list.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

function oneOf<V extends string>(values: readonly V[], value: string | undefined): V | undefined {
  return (values as readonly string[]).includes(value ?? '') ? (value as V) : undefined;
}

/** The list state's filters as the contract knows them (the list and the export share them). */
function auditFilter(state: ListState) {
  const { userId, deviceName, scope, result, country } = state.filters;
  return {
    userId: userId || undefined,
    deviceName: deviceName || undefined,
    scope: oneOf<AuditScope>(AUDIT_SCOPES, scope),
    result: oneOf<AuditResult>(AUDIT_RESULTS, result),
    country: country && /^[A-Z]{2}$/.test(country) ? country : undefined,
    ...dateRangeQuery(state.filters),
  };
}

/** The list state as the call's query: paging from toListQuery, the filters the contract knows. */
export function auditListQuery(state: ListState) {
  const paging = toListQuery(state);
  const sort = oneOf<AuditSortField>(AUDIT_SORT_FIELDS, state.sort) ?? AUDIT_LIST_DEFAULT_SORT.sort;
  return { sort, direction: state.direction, offset: Number(paging['offset']), limit: Number(paging['limit']), ...auditFilter(state) };
}

/** spec §7: GET projects/{project}/audit with the filters, sort, offset and limit. */
export function useAuditEvents(projectId: string, state: ListState) {
  return useRangedList({
    projectId,
    query: auditListQuery(state),
    keyOf: (query) => queryKeys.auditList(projectId, query),
    load: (query, signal) => request(api.listAuditEvents, { params: { project: projectId }, query, signal }),
  });
}

/**
 * GET projects/{project}/audit/export: the list's filter as a file, in created-at order (the
 * list's direction when it is sorted by date, else newest first).
 */
export function exportAuditEvents(projectId: string, state: ListState, format: ExportFormat, options: ExportRun) {
  return download(api.exportAuditEvents, {
    params: { project: projectId },
    query: { format, direction: exportDirection(state, AUDIT_LIST_DEFAULT_SORT.direction), ...auditFilter(state) },
    fallbackName: `audit-${projectId}.${format}`,
    ...options,
  });
}
