import { deviceList } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import { devicesKeys } from './query-keys.ts';

/**
 * spec §7: GET projects/{project}/mpinids with the declared filters, sort, offset and limit; and
 * GET projects/{project}/mpinids/export, the list's filter as a file.
 */
export const { useList: useDevices, exportFile: exportDevices } = rangedListCalls({
  declared: deviceList,
  name: 'devices',
  list: api.listDevices,
  export: api.exportDevices,
  key: devicesKeys.deviceList,
});
