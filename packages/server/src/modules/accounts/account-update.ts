import { DomainError, permissionsOfProject, type Account, type AccountUpdate } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import { deleteConsolePasskeys } from '../../idp/console-passkeys.repository.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import {
  deleteSessionsOfAccount,
  findProjectAccount,
  projectsWithoutAdministrator,
  saveAccount,
  setProjectPermissions,
} from './account-list.repository.ts';
import { beginAccountChange, checkedPermissions, checkGrantable, checkHoldsAllOf, keepsAdministrators } from './account-rules.ts';
import { deleteServiceToken } from './service-tokens.repository.ts';

/** An account of a project changed, staff or service: its permissions and its status. */
export function createAccountUpdateCalls({ db, audit }: { db: Db; audit: AuditHook }) {
  return {
    /**
     * spec §7 PUT projects/{project}/accounts/{id}: its permissions on the project (and global ones)
     * and its status. Deactivating ends its sessions and its token at once; reactivating revives
     * neither.
     */
    async update(actor: Actor, projectId: string, accountId: string, input: AccountUpdate, ifMatch: number | null): Promise<Versioned<Account>> {
      const permissions = checkedPermissions(projectId, input.permissions);
      if (permissionsOfProject(permissions, projectId).length === 0) {
        throw new DomainError('validation_failed', 'An account of the project keeps at least one permission on it', [
          { field: 'permissions', code: 'validation.at_least_one_permission', message: 'Select at least one permission' },
        ]);
      }
      return db.transaction(async (tx) => {
        const { held } = await beginAccountChange(tx, actor, projectId);
        const found = await findProjectAccount(tx, projectId, accountId);
        if (!found) throw notFound();
        checkVersion(found.version, ifMatch, 'account');
        const current = found.value;
        const before = current.permissions;
        checkGrantable(held, before, permissions);
        if (input.active !== current.active) {
          if (!input.active && accountId === actor.accountId) throw new DomainError('forbidden', 'You cannot deactivate your own account');
          // An account's status holds in every project: changing it (either way) needs everything it holds.
          await checkHoldsAllOf(
            tx,
            held,
            accountId,
            `You cannot ${input.active ? 'activate' : 'deactivate'} an account holding permissions you do not hold`,
          );
        }
        const withoutAdministrator = await projectsWithoutAdministrator(tx);
        await setProjectPermissions(tx, accountId, projectId, permissions);
        await saveAccount(tx, accountId, input.active);
        if (!input.active) {
          await deleteSessionsOfAccount(tx, accountId);
          await deleteServiceToken(tx, accountId);
          // Its passkeys at the console's issuer go too (docs/decisions/0027): reactivated, it signs in by code.
          if (current.email) await deleteConsolePasskeys(tx, current.email);
        }
        await keepsAdministrators(tx, withoutAdministrator);
        await audit(tx, {
          actor,
          action: 'account.update',
          result: 'success',
          projectId,
          changes: changesBetween({ permissions: before, active: current.active }, { permissions, active: input.active }),
          details: { accountId, account: current.email ?? current.name },
        });
        const saved = await findProjectAccount(tx, projectId, accountId);
        if (!saved) throw notFound();
        return saved;
      });
    },
  };
}
