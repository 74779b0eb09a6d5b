import Provider, { type AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { RefreshEvents } from '../oidc/issuer-provider.ts';
import type { CodeEvents } from '../oidc/payloads.repository.ts';
import { originOf, type UserReader } from './provider-requests.ts';

/**
 * A code issued to the application (scope `authcode`) and exchanged for tokens (the ID token it
 * yields counts as `jwt` usage), each with the change that stores or consumes the code; a code
 * presented twice is refused (and every token of its grant revoked) with a `failed` event. Each is
 * written by the very statement that stores or consumes the code (EventChange): no transaction.
 */
export function codeEvents(db: Db, userOf: UserReader, events: IssuerEvents): CodeEvents {
  const who = async (tx: Db, code: AdapterPayload) =>
    typeof code.accountId === 'string' ? ((await userOf(tx, code.accountId))?.identity ?? null) : null;
  return {
    async issued(on, code, store) {
      const userId = await who(on, code);
      await events.recordWith(
        on,
        originOf(Provider.ctx, code.clientId),
        { scope: 'authcode', status: 'success', action: 'code.issued', userId },
        store,
      );
    },
    async exchanged(on, code, consume) {
      const userId = await who(on, code);
      return events.recordWith(
        on,
        originOf(Provider.ctx, code.clientId),
        { scope: 'authcode', status: 'success', action: 'code.exchanged', userId, usage: 'jwt' },
        consume,
      );
    },
    async reused(code) {
      const userId = code ? await who(db, code) : null;
      await events.refusal(originOf(Provider.ctx, code?.clientId), {
        scope: 'authcode',
        status: 'failed',
        action: 'code.exchanged',
        userId,
        details: { reason: 'code_reused' },
      });
    },
  };
}

/**
 * Each refresh token grant is an event of scope `authcode` (the token endpoint's). Answered, it is
 * written by the statement that stores its access token, as a code's exchange is by the one that
 * consumes it, and counts as an ID token issued (`jwt`) when its scope has `openid` (oidc-provider
 * then issues one). Refused (a reused, expired or revoked token), it is a `failed` refusal with the
 * provider's reason.
 */
export function refreshEvents(db: Db, userOf: UserReader, events: IssuerEvents): RefreshEvents {
  const who = async (on: Db, accountId: unknown) => (typeof accountId === 'string' ? ((await userOf(on, accountId))?.identity ?? null) : null);
  return {
    async accessTokenIssued(on, token, store) {
      const idToken = typeof token.scope === 'string' && token.scope.split(' ').includes('openid');
      await events.recordWith(
        on,
        originOf(Provider.ctx, token.clientId),
        {
          scope: 'authcode',
          status: 'success',
          action: 'token.refreshed',
          userId: await who(on, token.accountId),
          ...(idToken ? { usage: 'jwt' as const } : {}),
        },
        store,
      );
    },
    async refused(ctx, accountId, reason) {
      await events.refusal(originOf(ctx, ctx.oidc.client?.clientId ?? ctx.oidc.params?.client_id), {
        scope: 'authcode',
        status: 'failed',
        action: 'token.refreshed',
        userId: await who(db, accountId),
        details: { reason },
      });
    },
  };
}
