import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { IssuerDefinition } from '../oidc/issuer-provider.ts';
import { LOGOUT_SCRIPT_HASH, logoutConfirmPage, logoutPage, signedOutPage } from '../oidc/pages/views.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { brandCsp, projectBrand } from './project-pages.ts';
import { originOf, pageRequestOf, type UserReader } from './provider-requests.ts';

/** What a project's logout is besides its back-channel notices (project-provider.ts). */
type LogoutPages = Omit<NonNullable<IssuerDefinition['logout']>, 'backchannel'>;

/** RP-Initiated Logout 1.0's pages, in the project's brand and language (the request's ui_locales first), and its event. */
export function projectLogoutPages(p: { db: Db; state: IssuerState; userOf: UserReader; events: IssuerEvents; origin: string }): LogoutPages {
  const { db, state, userOf, events, origin } = p;
  return {
    async logoutSource(ctx, form) {
      const brand = projectBrand(state, pageRequestOf(ctx, origin));
      // A valid ID token of this person (id_token_hint) proves who asks: the page goes on by itself.
      // Anything else (none, or another person's) is confirmed by a click.
      const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
      const proven = hint?.payload?.sub !== undefined && hint.payload.sub === ctx.oidc.session?.accountId;
      const csp = brandCsp(brand);
      ctx.set('Content-Security-Policy', proven ? csp.replace("script-src 'self'", `script-src 'self' ${LOGOUT_SCRIPT_HASH}`) : csp);
      ctx.type = 'html';
      ctx.body = proven ? logoutPage(form, brand) : logoutConfirmPage(form, brand);
    },
    async signedOut(ctx, accountId, clientId) {
      const user = await userOf(db, accountId);
      await events.recordNow(originOf(ctx, clientId), { scope: 'oidc', status: 'success', action: 'sign_out', userId: user?.identity ?? null });
    },
    async postLogoutSuccessSource(ctx) {
      const brand = projectBrand(state, pageRequestOf(ctx, origin));
      ctx.set('Content-Security-Policy', brandCsp(brand));
      ctx.type = 'html';
      ctx.body = signedOutPage(null, brand);
    },
  };
}
