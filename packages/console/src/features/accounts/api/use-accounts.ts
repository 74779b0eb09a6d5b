import { accountList } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { listCalls } from '../../../lib/list-state/declared-calls.ts';
import { accountsKeys } from './query-keys.ts';

/** spec §7: GET projects/{project}/accounts with email and active (spec §9: email ascending). */
export const useAccounts = listCalls({ declared: accountList, list: api.listAccounts, key: accountsKeys.accountList });
