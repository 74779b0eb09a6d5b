import { DEVICE_LIST_DEFAULT_SORT, DEVICE_SORT_FIELDS, type DeviceSortField, type ExportFormat } from '@latchkey/domain';
import { api, download, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { toListQuery } from '../../../lib/list-state/list-state.ts';
import { dateRangeQuery, exportDirection, useRangedList, type ExportRun } from '../../../lib/list-state/use-ranged-list.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

function isDeviceSortField(value: string): value is DeviceSortField {
  return (DEVICE_SORT_FIELDS as readonly string[]).includes(value);
}

function booleanFilter(value: string | undefined): 'true' | 'false' | undefined {
  return value === 'true' || value === 'false' ? value : undefined;
}

/** The list state's filters as the contract knows them (the list and the export share them). */
function deviceFilter(state: ListState) {
  const { userId, deviceName, ip, revoked } = state.filters;
  return {
    userId: userId || undefined,
    deviceName: deviceName || undefined,
    ip: ip || undefined,
    revoked: booleanFilter(revoked),
    ...dateRangeQuery(state.filters),
  };
}

/** The list state as the call's query: paging from toListQuery, the filters the contract knows. */
export function deviceListQuery(state: ListState) {
  const paging = toListQuery(state);
  const sort = isDeviceSortField(state.sort) ? state.sort : DEVICE_LIST_DEFAULT_SORT.sort;
  return { sort, direction: state.direction, offset: Number(paging['offset']), limit: Number(paging['limit']), ...deviceFilter(state) };
}

/** spec §7: GET projects/{project}/mpinids with the filters, sort, offset and limit. */
export function useDevices(projectId: string, state: ListState) {
  return useRangedList({
    projectId,
    query: deviceListQuery(state),
    keyOf: (query) => queryKeys.deviceList(projectId, query),
    load: (query, signal) => request(api.listDevices, { params: { project: projectId }, query, signal }),
  });
}

/**
 * GET projects/{project}/mpinids/export: the list's filter as a file, in created-at order (the
 * list's direction when it is sorted by date, else newest first).
 */
export function exportDevices(projectId: string, state: ListState, format: ExportFormat, options: ExportRun) {
  return download(api.exportDevices, {
    params: { project: projectId },
    query: { format, direction: exportDirection(state, DEVICE_LIST_DEFAULT_SORT.direction), ...deviceFilter(state) },
    fallbackName: `devices-${projectId}.${format}`,
    ...options,
  });
}
