import { randomUUID } from 'node:crypto';
import { DomainError, type Account, type ServiceAccountCreate, type ServiceAccountToken } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomToken, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween, SECRET_CHANGED } from '../audit/changes.ts';
import { findProjectAccount, setProjectPermissions } from './account-list.repository.ts';
import { beginAccountChange, checkedPermissions, checkGrantable, checkHoldsAllOf } from './account-rules.ts';
import { insertAccount } from './accounts.repository.ts';
import { deleteServiceToken, replaceServiceToken } from './service-tokens.repository.ts';

/** Service-account tokens start with this, so secret scanners (and people) recognise a leaked one. */
export const SERVICE_TOKEN_PREFIX = 'lks_';

/** The keyed hash a token is stored and looked up by. */
export function serviceTokenHash(secretBox: Pick<SecretBox, 'hmac'>, token: string): string {
  return secretBox.hmac('service-account-token', token);
}

export interface ServiceAccountsDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: Pick<SecretBox, 'hmac'>;
}

/** A token's expiry as asked for: none, or a moment still to come. */
function expiry(value: string | null | undefined, now: Date): Date | null {
  if (!value) return null;
  const at = new Date(value);
  if (at.getTime() <= now.getTime()) {
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

/** spec §7 "Accounts", issue 12: a project's service accounts and their tokens (docs/decisions/0026). */
export function createServiceAccountCalls({ db, clock, audit, secretBox }: ServiceAccountsDeps) {
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
      const { held } = await beginAccountChange(tx, actor, projectId);
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
    /** spec §7 POST projects/{project}/serviceaccounts: the account and, when it is active, its first token, shown once. */
    async createService(actor: Actor, projectId: string, input: ServiceAccountCreate): Promise<ServiceAccountToken> {
      const permissions = checkedPermissions(projectId, input.permissions);
      const expiresAt = expiry(input.expiresAt, clock.now());
      return db.transaction(async (tx) => {
        const { held } = await beginAccountChange(tx, actor, projectId);
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
      const expiresAt = expiry(input.expiresAt, clock.now());
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
