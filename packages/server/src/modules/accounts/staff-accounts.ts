import { randomUUID } from 'node:crypto';
import { DomainError, type StaffAccountCreate } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../../http/actor.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { findProjectAccount } from './account-list.repository.ts';
import { beginAccountChange, checkedPermissions, checkGrantable } from './account-rules.ts';
import { findAccountByEmail, grantPermissions, insertAccount } from './accounts.repository.ts';

export interface StaffAccountsDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  mailer: Mailer;
  /** The console's address, for invitations (PUBLIC_URL). */
  consoleUrl: string;
  /** Where a failure that does not fail the call is reported (the app's log; no address in the message). */
  warn: (error: unknown, message: string) => void;
}

/** A person's account added to a project: given this project's permissions, or invited. */
export function createStaffAccountCalls({ db, clock, audit, mailer, consoleUrl, warn }: StaffAccountsDeps) {
  return {
    /**
     * spec §7 POST projects/{project}/accounts. An address that has an account gets this project's
     * permissions (409 when it has some already); one that has never signed in becomes an invited
     * account, mailed the console's address, whose first sign-in finds its permissions waiting.
     */
    async createStaff(actor: Actor, projectId: string, input: StaffAccountCreate): Promise<{ id: string }> {
      const permissions = checkedPermissions(projectId, input.permissions);
      const email = input.email.toLowerCase();
      const { id, invited, projectName } = await db.transaction(async (tx) => {
        const { projectName: name, held } = await beginAccountChange(tx, actor, projectId);
        checkGrantable(held, [], permissions);
        let account = await findAccountByEmail(tx, email);
        let created = false;
        if (account) {
          if (await findProjectAccount(tx, projectId, account.id)) {
            throw new DomainError('conflict', 'This address already has an account in this project: change its permissions there', [
              { field: 'email', code: 'conflict', message: 'Already an account of this project' },
            ]);
          }
          // A person who has an account keeps it as it is (its status, its other permissions): this
          // project's permissions are added beside them.
        } else {
          account = await insertAccount(tx, { id: randomUUID(), email, createdAt: clock.now(), invited: true, active: input.active });
          created = true;
        }
        await grantPermissions(tx, account.id, permissions);
        await audit(tx, {
          actor,
          action: 'account.create',
          result: 'created',
          projectId,
          changes: changesBetween(null, { email, permissions, ...(created ? { active: input.active } : {}) }),
          details: { accountId: account.id, invited: created },
        });
        return { id: account.id, invited: created, projectName: name };
      });
      if (invited) {
        // The account exists whatever the mail server says: the person can sign in at the console's
        // address; a failed invitation is logged, not answered as a failed creation.
        await mailer.sendInvitation(email, { consoleUrl, projectName, invitedBy: actor.email }).catch((error: unknown) => {
          warn(error, 'an invitation could not be sent');
        });
      }
      return { id };
    },
  };
}
