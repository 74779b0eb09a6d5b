import type { Account, AccountList, AccountListQuery } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Versioned } from '../../http/etag.ts';
import { findProjectAccount, listProjectAccounts } from './account-list.repository.ts';
import { createAccountUpdateCalls } from './account-update.ts';
import { createServiceAccountCalls, type ServiceAccountsDeps } from './service-accounts.ts';
import { createStaffAccountCalls, type StaffAccountsDeps } from './staff-accounts.ts';

export type AccountsServiceDeps = ServiceAccountsDeps & Omit<StaffAccountsDeps, 'warn'> & Partial<Pick<StaffAccountsDeps, 'warn'>>;

/** The accounts of a project as read: a closed project's accounts are read too. */
function createAccountReads(db: Db) {
  return {
    /** spec §7 GET projects/{project}/accounts; the guard has checked `accounts`. */
    async list(projectId: string, q: AccountListQuery): Promise<AccountList> {
      return listProjectAccounts(db, projectId, q);
    },

    async get(projectId: string, accountId: string): Promise<Versioned<Account>> {
      const found = await findProjectAccount(db, projectId, accountId);
      if (!found) throw notFound();
      return found;
    },
  };
}

/**
 * spec §7 "Accounts", issue 12 (docs/decisions/0022): the staff and service accounts of a project,
 * with the rules the server enforces whatever the console shows (account-rules.ts) — no one grants
 * (or takes away) a permission they do not hold; a project keeps an active administrator; an
 * account does not deactivate itself; a deactivated account's sessions and token end at once.
 */
export function createAccountsService({ warn = () => undefined, ...deps }: AccountsServiceDeps) {
  return {
    ...createAccountReads(deps.db),
    ...createStaffAccountCalls({ ...deps, warn }),
    ...createAccountUpdateCalls(deps),
    ...createServiceAccountCalls(deps),
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
