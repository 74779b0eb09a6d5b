import { randomUUID } from 'node:crypto';
import {
  DomainError,
  foreignPermissions,
  normalizePermissions,
  permissionsOfProject,
  ungrantablePermissions,
  type Account,
  type AccountList,
  type AccountListQuery,
  type AccountUpdate,
  type ServiceAccountCreate,
  type ServiceAccountToken,
  type StaffAccountCreate,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween, SECRET_CHANGED } from '../audit/changes.ts';
import { findProject } from '../projects/projects.repository.ts';
import {
  deleteSessionsOfAccount,
  findProjectAccount,
  listProjectAccounts,
  lockProjectAccounts,
  projectsWithoutAdministrator,
  saveAccount,
  setProjectPermissions,
} from './account-list.repository.ts';
import { deleteConsolePasskeys } from '../../idp/console-passkeys.repository.ts';
import { findAccountByEmail, grantPermissions, insertAccount, listPermissions, lockAccountCreation } from './accounts.repository.ts';
import type { Actor } from '../../http/actor.ts';
import { deleteServiceToken, replaceServiceToken } from './service-tokens.repository.ts';

/** Service-account tokens start with this, so secret scanners (and people) recognise a leaked one. */
export const SERVICE_TOKEN_PREFIX = 'lks_';

/** The keyed hash a token is stored and looked up by. */
export function serviceTokenHash(secretBox: Pick<SecretBox, 'hmac'>, token: string): string {
  return secretBox.hmac('service-account-token', token);
}

export interface AccountsServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  mailer: Mailer;
  secretBox: Pick<SecretBox, 'hmac'>;
  /** The console's address, for invitations (PUBLIC_URL). */
  consoleUrl: string;
  /** Where a failure that does not fail the call is reported (the app's log; no address in the message). */
  warn?: (error: unknown, message: string) => void;
}

function forbidden(permissions: string[], why: string): DomainError {
  return new DomainError(
    'forbidden',
    `${why}: ${permissions.join(', ')}`,
    permissions.map(() => ({ field: 'permissions', code: 'forbidden', message: why })),
  );
}

/**
 * spec §7 "Accounts", issue 12 (docs/decisions/0022): the staff and service accounts of a project,
 * with the rules the server enforces whatever the console shows — no one grants (or takes away)
 * a permission they do not hold; a project keeps an active administrator; an account does not
 * deactivate itself; a deactivated account's sessions and token end at once.
 */
export function createAccountsService({ db, clock, audit, mailer, secretBox, consoleUrl, warn = () => undefined }: AccountsServiceDeps) {
  /**
   * Inside a transaction: account changes run one at a time across the installation (a status and
   * a global permission hold in every project, so two changes in two projects could otherwise
   * each remove the other's administrator), the project must be open, and the actor's permissions
   * are read again under that lock (a grant does not outrun the actor's own demotion).
   */
  async function begin(tx: Db, actor: Actor, projectId: string): Promise<{ projectName: string; held: string[] }> {
    await lockAccountCreation(tx);
    await lockProjectAccounts(tx, projectId);
    const project = await findProject(tx, projectId);
    if (!project) throw notFound();
    if (!project.value.enabled) throw projectClosed();
    return { projectName: project.value.name, held: await listPermissions(tx, actor.accountId) };
  }

  /** The permissions asked for, normalised (spec §5: a parent stands for its children), checked against the project and the actor. */
  function checkedPermissions(projectId: string, asked: readonly string[]): string[] {
    const foreign = foreignPermissions(asked, projectId);
    if (foreign.length > 0) {
      throw new DomainError('validation_failed', `Not a permission of this project: ${foreign.join(', ')}`, [
        { field: 'permissions', code: 'validation.invalid_value', message: 'Invalid value' },
      ]);
    }
    return normalizePermissions(asked);
  }

  /** No one grants or removes what they do not hold (issue 12): 403 naming each such permission, nothing changed. */
  function checkGrantable(held: readonly string[], before: readonly string[], after: readonly string[]): void {
    const added = after.filter((p) => !before.includes(p));
    const removed = before.filter((p) => !after.includes(p));
    const refused = ungrantablePermissions(held, [...added, ...removed]);
    if (refused.length > 0) throw forbidden(refused, 'You can only give or take away permissions you hold yourself');
  }

  /** Acting on an account as a whole (its status, its token) needs everything it holds, in every project. */
  async function checkHoldsAllOf(tx: Db, held: readonly string[], accountId: string, why: string): Promise<void> {
    const beyond = ungrantablePermissions(held, await listPermissions(tx, accountId));
    if (beyond.length > 0) throw forbidden(beyond, why);
  }

  /** After a change: no project that had an active administrator before it is left without one (status and global permissions reach every project). */
  async function keepsAdministrators(tx: Db, before: ReadonlySet<string>): Promise<void> {
    const lost = [...(await projectsWithoutAdministrator(tx))].filter((id) => !before.has(id));
    if (lost.length > 0) {
      throw new DomainError('conflict', 'A project must keep at least one active account holding all of its permissions (select all)');
    }
  }

  async function issueToken(tx: Db, accountId: string, expiresAt: Date | null): Promise<string> {
    const token = `${SERVICE_TOKEN_PREFIX}${randomToken(32)}`;
    await replaceServiceToken(tx, {
      accountId,
      tokenHash: serviceTokenHash(secretBox, token),
      prefix: token.slice(0, SERVICE_TOKEN_PREFIX.length + 6),
      createdAt: clock.now(),
      expiresAt,
    });
    return token;
  }

  function expiry(value: string | null | undefined): Date | null {
    if (!value) return null;
    const at = new Date(value);
    if (at.getTime() <= clock.now().getTime()) {
      throw new DomainError('validation_failed', 'The expiry must be in the future', [
        { field: 'expiresAt', code: 'validation.out_of_range', message: 'Value not in the valid range' },
      ]);
    }
    return at;
  }

  async function serviceAccountOf(tx: Db, projectId: string, accountId: string): Promise<Account> {
    const found = await findProjectAccount(tx, projectId, accountId);
    if (!found || !found.value.isServiceAccount) throw notFound();
    return found.value;
  }
  /**
   * A change of a service account's token, in one transaction: the project open, the account one
   * of its service accounts, and (its token *is* the account) everything it holds, in every
   * project, held by the actor; then `change`, then the audit event of `action`.
   */
  async function changeToken<T>(
    actor: Actor,
    projectId: string,
    accountId: string,
    what: { action: string; refused: string; details?: Record<string, unknown> },
    change: (tx: Db, account: Account) => Promise<T>,
  ): Promise<T> {
    return db.transaction(async (tx) => {
      const { held } = await begin(tx, actor, projectId);
      const account = await serviceAccountOf(tx, projectId, accountId);
      await checkHoldsAllOf(tx, held, accountId, what.refused);
      const result = await change(tx, account);
      await audit(tx, {
        actor,
        action: what.action,
        result: 'success',
        projectId,
        changes: { token: SECRET_CHANGED },
        details: { accountId, account: account.name, ...what.details },
      });
      return result;
    });
  }

  return {
    /** spec §7 GET projects/{project}/accounts; the guard has checked `accounts`. A closed project's accounts are read. */
    async list(projectId: string, q: AccountListQuery): Promise<AccountList> {
      return listProjectAccounts(db, projectId, q);
    },

    async get(projectId: string, accountId: string): Promise<Versioned<Account>> {
      const found = await findProjectAccount(db, projectId, accountId);
      if (!found) throw notFound();
      return found;
    },

    /**
     * spec §7 POST projects/{project}/accounts. An address that has an account gets this project's
     * permissions (409 when it has some already); one that has never signed in becomes an invited
     * account, mailed the console's address, whose first sign-in finds its permissions waiting.
     */
    async createStaff(actor: Actor, projectId: string, input: StaffAccountCreate): Promise<{ id: string }> {
      const permissions = checkedPermissions(projectId, input.permissions);
      const email = input.email.toLowerCase();
      const { id, invited, projectName } = await db.transaction(async (tx) => {
        const { projectName: name, held } = await begin(tx, actor, projectId);
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
        const { held } = await begin(tx, actor, projectId);
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

    /** spec §7 POST projects/{project}/serviceaccounts: the account and, when it is active, its first token, shown once. */
    async createService(actor: Actor, projectId: string, input: ServiceAccountCreate): Promise<ServiceAccountToken> {
      const permissions = checkedPermissions(projectId, input.permissions);
      const expiresAt = expiry(input.expiresAt);
      return db.transaction(async (tx) => {
        const { held } = await begin(tx, actor, projectId);
        checkGrantable(held, [], permissions);
        const account = await insertAccount(tx, {
          id: randomUUID(),
          email: null,
          name: input.name,
          isServiceAccount: true,
          active: input.active,
          createdAt: clock.now(),
        });
        await setProjectPermissions(tx, account.id, projectId, permissions);
        // Issue 21: an account created inactive gets no token, so none starts working the day someone
        // activates it; its first token is made on its page once it is active (docs/decisions/0026).
        const token = input.active ? await issueToken(tx, account.id, expiresAt) : null;
        await audit(tx, {
          actor,
          action: 'account.create',
          result: 'created',
          projectId,
          changes: { ...changesBetween(null, { name: input.name, permissions, active: input.active }), ...(token ? { token: SECRET_CHANGED } : {}) },
          details: { accountId: account.id, serviceAccount: true, expiresAt: expiresAt?.toISOString() ?? null },
        });
        return { id: account.id, token };
      });
    },

    /** Issue 12: a new token, shown once; the old one stops at once. */
    async rotateToken(
      actor: Actor,
      projectId: string,
      accountId: string,
      input: { expiresAt?: string | null | undefined },
    ): Promise<ServiceAccountToken> {
      const expiresAt = expiry(input.expiresAt);
      const what = {
        action: 'account.token.rotate',
        refused: 'You cannot make a token for an account holding permissions you do not hold',
        details: { expiresAt: expiresAt?.toISOString() ?? null },
      };
      return changeToken(actor, projectId, accountId, what, async (tx, account) => {
        if (!account.active) throw new DomainError('conflict', 'This service account is inactive: activate it first');
        return { id: accountId, token: await issueToken(tx, accountId, expiresAt) };
      });
    },

    /** Issue 12: the token stops working; the account stays (a new token can be made). */
    async revokeToken(actor: Actor, projectId: string, accountId: string): Promise<void> {
      const what = { action: 'account.token.revoke', refused: 'You cannot revoke the token of an account holding permissions you do not hold' };
      await changeToken(actor, projectId, accountId, what, async (tx) => {
        if (!(await deleteServiceToken(tx, accountId))) throw new DomainError('conflict', 'This service account has no token');
      });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
