import type { FastifyInstance } from 'fastify';
import { ACCOUNT_CLIENT_ID } from '../issuer/account-client.ts';
import type { AccountFlow } from './account-flow.ts';
import { html, type AccountRequest } from './account-site.ts';
import { accountMessagePage } from './account-views.ts';

/**
 * The end of a sign-in to the page (`/account/callback`, the page's client's redirect URI): the
 * state this browser's sign-in began with, and the provider session it left; the page again.
 */
export function registerSignInStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  pages.get(`${page}/callback`, async (request: AccountRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    if (!site) return reply;
    const { code, state, error } = request.query;
    const matches = flow.takeSignIn(site, request, reply, state);
    // The page's client never exchanges its code: it is taken here, so it is never left to be used.
    if (matches && typeof code === 'string' && code.length <= 512) {
      const issued = await site.provider.AuthorizationCode.find(code).catch(() => undefined);
      if (issued?.clientId === ACCOUNT_CLIENT_ID) await issued.destroy();
    }
    if (!matches || error !== undefined) return html(reply, 400, accountMessagePage(site.links, 'notSignedIn', site.brand));
    return reply.redirect(site.links.base, 303);
  });
}
