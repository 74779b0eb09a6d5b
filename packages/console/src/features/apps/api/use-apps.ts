import { applicationList } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { listCalls } from '../../../lib/list-state/declared-calls.ts';
import { appsKeys } from './query-keys.ts';

/** spec §7: GET projects/{project}/apps with sort, direction, offset, limit and the declared filters. */
export const useApps = listCalls({ declared: applicationList, list: api.listApps, key: appsKeys.appList });
