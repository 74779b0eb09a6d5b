import { endUserList } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import { usersKeys } from './query-keys.ts';

/** GET projects/{project}/users with the declared filters, sort and paging; and its export (issue 24). */
export const { useList: useUsers, exportFile: exportUsers } = rangedListCalls({
  declared: endUserList,
  name: 'users',
  list: api.listEndUsers,
  export: api.exportEndUsers,
  key: usersKeys.userList,
});
