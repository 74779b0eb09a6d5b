import { auditList } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import { auditKeys } from './query-keys.ts';

/**
 * spec §7: GET projects/{project}/audit with the declared filters, sort, offset and limit; and
 * GET projects/{project}/audit/export, the list's filter as a file.
 */
export const { useList: useAuditEvents, exportFile: exportAuditEvents } = rangedListCalls({
  declared: auditList,
  name: 'audit',
  list: api.listAuditEvents,
  export: api.exportAuditEvents,
  key: auditKeys.auditList,
});
