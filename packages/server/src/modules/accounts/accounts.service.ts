import { randomUUID } from 'node:crypto';
import {
  DomainError,
  foreignPermissions,
  normalizePermissions,
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
import type { Mailer } from '../../mail/mailer.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween, SECRET_CHANGED } from '../audit/changes.ts';
import { findProject } from '../projects/projects.repository.ts';
import {
  deleteSessionsOfAccount,
  findProjectAccount,
  hasActiveAdministrator,
  listProjectAccounts,
  lockProjectAccounts,
  setAccountActive,
  setProjectPermissions,
  type ProjectAccountRow,
} from './account-list.repository.ts';
import { findAccountByEmail, insertAccount, listPermissions } from './accounts.repository.ts';
import type { Actor } from './actor.ts';
import { deleteServiceToken, findServiceTokens, replaceServiceToken, type ServiceTokenRow } from './service-tokens.repository.ts';

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
}

function view(row: ProjectAccountRow, token: ServiceTokenRow | undefined): Account {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    active: row.active,
    isServiceAccount: row.isServiceAccount,
    permissions: normalizePermissions(row.permissions),
    invited: !row.isServiceAccount && row.signedInAt === null,
    ...(row.isServiceAccount
      ? {
          token: token
            ? {
                prefix: token.prefix,
                createdAt: token.createdAt.toISOString(),
                expiresAt: token.expiresAt?.toISOString() ?? null,
                lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
                lastUsedIp: token.lastUsedIp,
              }
            : null,
        }
      : {}),
  };
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
export function createAccountsService({ db, clock, audit, mailer, secretBox, consoleUrl }: AccountsServiceDeps) {
  /** Inside a transaction: the open project, locked so that account changes of one project run one at a time. */
  async function openProject(tx: Db, projectId: string): Promise<string> {
    await lockProjectAccounts(tx, projectId);
    const project = await findProject(tx, projectId);
    if (!project) throw notFound();
    if (!project.value.enabled) throw projectClosed();
    return project.value.name;
  }

  /** The permissions asked for, normalised (spec §5: a parent stands for its children), checked against the project and the actor. */
  function checkedPermissions(actor: Actor, projectId: string, asked: readonly string[]): string[] {
    const foreign = foreignPermissions(asked, projectId);
    if (foreign.length > 0) {
      throw new DomainError('validation_failed', `Not a permission of this project: ${foreign.join(', ')}`, [
        { field: 'permissions', code: 'validation.invalid_value', message: 'Invalid value' },
      ]);
    }
    return normalizePermissions(asked);
  }

  /** No one grants or removes what they do not hold (issue 12): 403 naming each such permission, nothing changed. */
  function checkGrantable(actor: Actor, before: readonly string[], after: readonly string[]): void {
    const added = after.filter((p) => !before.includes(p));
    const removed = before.filter((p) => !after.includes(p));
    const refused = ungrantablePermissions(actor.permissions, [...added, ...removed]);
    if (refused.length > 0) throw forbidden(refused, 'You can only give or take away permissions you hold yourself');
  }

  async function keepsAdministrator(tx: Db, projectId: string): Promise<void> {
    if (!(await hasActiveAdministrator(tx, projectId))) {
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

  async function serviceAccountOf(tx: Db, projectId: string, accountId: string): Promise<ProjectAccountRow> {
    const row = await findProjectAccount(tx, projectId, accountId);
    if (!row || !row.isServiceAccount) throw notFound();
    return row;
  }

  return {
    /** spec §7 GET projects/{project}/accounts; the guard has checked `accounts`. A closed project's accounts are read. */
    async list(projectId: string, q: AccountListQuery): Promise<AccountList> {
      const found = await listProjectAccounts(db, projectId, q);
      const tokens = await findServiceTokens(
        db,
        found.list.filter((a) => a.isServiceAccount).map((a) => a.id),
      );
      return { total: found.total, list: found.list.map((row) => view(row, tokens.get(row.id))) };
    },

    async get(projectId: string, accountId: string): Promise<Account> {
      const row = await findProjectAccount(db, projectId, accountId);
      if (!row) throw notFound();
      return view(row, (await findServiceTokens(db, [row.id])).get(row.id));
    },

    /**
     * spec §7 POST projects/{project}/accounts. An address that has an account gets this project's
     * permissions (409 when it has some already); one that has never signed in becomes an invited
     * account, mailed the console's address, whose first sign-in finds its permissions waiting.
     */
    async createStaff(actor: Actor, projectId: string, input: StaffAccountCreate): Promise<{ id: string }> {
      const permissions = checkedPermissions(actor, projectId, input.permissions);
      const email = input.email.toLowerCase();
      const { id, invited, projectName } = await db.transaction(async (tx) => {
        const name = await openProject(tx, projectId);
        checkGrantable(actor, [], permissions);
        let account = await findAccountByEmail(tx, email);
        let created = false;
        if (account) {
          if (account.isServiceAccount) throw new DomainError('conflict', 'This address belongs to a service account');
          if (await findProjectAccount(tx, projectId, account.id)) {
            throw new DomainError('conflict', 'This address already has an account in this project: change its permissions there', [
              { field: 'email', code: 'conflict', message: 'Already an account of this project' },
            ]);
          }
          // The status is the account's own, in every project: adding it here does not change it.
          if (account.active !== input.active) {
            throw new DomainError('conflict', `This person already has an account, ${account.active ? 'active' : 'inactive'}: add it as it is`, [
              { field: 'active', code: 'conflict', message: 'Not the status of the existing account' },
            ]);
          }
        } else {
          account = await insertAccount(tx, { id: randomUUID(), email, createdAt: clock.now(), invited: true, active: input.active });
          created = true;
        }
        await setProjectPermissions(tx, account.id, projectId, [...permissions]);
        await audit(tx, {
          actor,
          action: 'account.create',
          result: 'created',
          projectId,
          changes: changesBetween(null, { email, permissions, active: input.active }),
          details: { accountId: account.id, invited: created },
        });
        return { id: account.id, invited: created, projectName: name };
      });
      if (invited) await mailer.sendInvitation(email, { consoleUrl, projectName, invitedBy: actor.email });
      return { id };
    },

    /**
     * spec §7 PUT projects/{project}/accounts/{id}: its permissions on the project (and global ones)
     * and its status. Deactivating ends its sessions and its token at once; reactivating revives
     * neither.
     */
    async update(actor: Actor, projectId: string, accountId: string, input: AccountUpdate): Promise<Account> {
      const permissions = checkedPermissions(actor, projectId, input.permissions);
      return db.transaction(async (tx) => {
        await openProject(tx, projectId);
        const current = await findProjectAccount(tx, projectId, accountId);
        if (!current) throw notFound();
        const before = normalizePermissions(current.permissions);
        checkGrantable(actor, before, permissions);
        if (!input.active && current.active) {
          if (accountId === actor.accountId) throw new DomainError('forbidden', 'You cannot deactivate your own account');
          // An account's status holds in every project: locking out one that holds anything the actor
          // does not (here, in another project, or globally) would take away what one does not hold.
          const beyond = ungrantablePermissions(actor.permissions, await listPermissions(tx, accountId));
          if (beyond.length > 0) throw forbidden(beyond, 'You cannot deactivate an account holding permissions you do not hold');
        }
        await setProjectPermissions(tx, accountId, projectId, permissions);
        if (input.active !== current.active) await setAccountActive(tx, accountId, input.active);
        if (!input.active) {
          await deleteSessionsOfAccount(tx, accountId);
          await deleteServiceToken(tx, accountId);
        }
        await keepsAdministrator(tx, projectId);
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
        return view(saved, (await findServiceTokens(tx, [accountId])).get(accountId));
      });
    },

    /** spec §7 POST projects/{project}/serviceaccounts: the account and its first token, shown once. */
    async createService(actor: Actor, projectId: string, input: ServiceAccountCreate): Promise<ServiceAccountToken> {
      const permissions = checkedPermissions(actor, projectId, input.permissions);
      const expiresAt = expiry(input.expiresAt);
      return db.transaction(async (tx) => {
        await openProject(tx, projectId);
        checkGrantable(actor, [], permissions);
        const account = await insertAccount(tx, {
          id: randomUUID(),
          email: null,
          name: input.name,
          isServiceAccount: true,
          active: input.active,
          createdAt: clock.now(),
        });
        await setProjectPermissions(tx, account.id, projectId, permissions);
        const token = await issueToken(tx, account.id, expiresAt);
        await audit(tx, {
          actor,
          action: 'account.create',
          result: 'created',
          projectId,
          changes: { ...changesBetween(null, { name: input.name, permissions, active: input.active }), token: SECRET_CHANGED },
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
      return db.transaction(async (tx) => {
        await openProject(tx, projectId);
        const account = await serviceAccountOf(tx, projectId, accountId);
        checkGrantable(actor, [], normalizePermissions(account.permissions));
        if (!account.active) throw new DomainError('conflict', 'This service account is inactive: activate it first');
        const token = await issueToken(tx, accountId, expiresAt);
        await audit(tx, {
          actor,
          action: 'account.token.rotate',
          result: 'success',
          projectId,
          changes: { token: SECRET_CHANGED },
          details: { accountId, account: account.name, expiresAt: expiresAt?.toISOString() ?? null },
        });
        return { id: accountId, token };
      });
    },

    /** Issue 12: the token stops working; the account stays (a new token can be made). */
    async revokeToken(actor: Actor, projectId: string, accountId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await openProject(tx, projectId);
        const account = await serviceAccountOf(tx, projectId, accountId);
        checkGrantable(actor, [], normalizePermissions(account.permissions));
        if (!(await deleteServiceToken(tx, accountId))) throw new DomainError('conflict', 'This service account has no token');
        await audit(tx, {
          actor,
          action: 'account.token.revoke',
          result: 'success',
          projectId,
          changes: { token: SECRET_CHANGED },
          details: { accountId, account: account.name },
        });
      });
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
