import {
  AUDIT_LIST_DEFAULT_SORT,
  AUDIT_RESULTS,
  AUDIT_SCOPES,
  AUDIT_SORT_FIELDS,
  type AuditResult,
  type AuditScope,
  type AuditSortField,
} from '@latchkey/domain';
import { api, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { toListQuery } from '../../../lib/list-state/list-state.ts';
import { dateRangeQuery, useRangedList } from '../../../lib/list-state/use-ranged-list.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

function oneOf<V extends string>(values: readonly V[], value: string | undefined): V | undefined {
  return (values as readonly string[]).includes(value ?? '') ? (value as V) : undefined;
}

/** The list state as the call's query: paging from toListQuery, the filters the contract knows. */
export function auditListQuery(state: ListState) {
  const paging = toListQuery(state);
  const { userId, deviceName, scope, result } = state.filters;
  return {
    sort: oneOf<AuditSortField>(AUDIT_SORT_FIELDS, state.sort) ?? AUDIT_LIST_DEFAULT_SORT.sort,
    direction: state.direction,
    offset: Number(paging['offset']),
    limit: Number(paging['limit']),
    userId: userId || undefined,
    deviceName: deviceName || undefined,
    scope: oneOf<AuditScope>(AUDIT_SCOPES, scope),
    result: oneOf<AuditResult>(AUDIT_RESULTS, result),
    ...dateRangeQuery(state.filters),
  };
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
