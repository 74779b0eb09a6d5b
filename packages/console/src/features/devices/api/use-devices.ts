import { DEVICE_LIST_DEFAULT_SORT, DEVICE_SORT_FIELDS, type DeviceSortField } from '@latchkey/domain';
import { api, request } from '../../../lib/api/index.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { toListQuery } from '../../../lib/list-state/list-state.ts';
import { dateRangeQuery, useRangedList } from '../../../lib/list-state/use-ranged-list.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

function isDeviceSortField(value: string): value is DeviceSortField {
  return (DEVICE_SORT_FIELDS as readonly string[]).includes(value);
}

function booleanFilter(value: string | undefined): 'true' | 'false' | undefined {
  return value === 'true' || value === 'false' ? value : undefined;
}

/** The list state as the call's query: paging from toListQuery, the filters the contract knows. */
export function deviceListQuery(state: ListState) {
  const paging = toListQuery(state);
  const { userId, deviceName, ip, revoked } = state.filters;
  return {
    sort: isDeviceSortField(state.sort) ? state.sort : DEVICE_LIST_DEFAULT_SORT.sort,
    direction: state.direction,
    offset: Number(paging['offset']),
    limit: Number(paging['limit']),
    userId: userId || undefined,
    deviceName: deviceName || undefined,
    ip: ip || undefined,
    revoked: booleanFilter(revoked),
    ...dateRangeQuery(state.filters),
  };
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
