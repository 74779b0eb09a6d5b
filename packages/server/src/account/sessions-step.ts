import type { FastifyInstance } from 'fastify';
import { ISSUER_SESSION_COOKIE } from '../oidc/issuer-provider.ts';
import type { AccountFlow } from './account-flow.ts';
import { html, notFoundPage, type AccountRequest } from './account-site.ts';
import { accountMessagePage } from './account-views.ts';

/**
 * The sessions the person is signed in with: sign out of another one, of every other, or here (the
 * page's own session ends, and with it the provider's session cookie).
 */
export function registerSessionsStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  flow.change(pages, `${page}/sessions/:session/end`, async (site, signed, request, reply) => {
    const which = request.params.session ?? '';
    const ended = await flow.changes.endSessions(flow.actorOf(site, signed, request), which, signed.sessionRow);
    if (ended === null) throw notFoundPage(site.brand);
    if (ended > 0) flow.deps.logoutNoticesQueued();
    return reply.redirect(flow.doneAt(site, which === 'others' ? 'othersSignedOut' : 'signedOut'), 303);
  });

  // Not a change of a signed-in person's only: a browser whose session ended meanwhile is told it signed out too.
  pages.post(`${page}/sign-out`, async (request: AccountRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    if (!site) return reply;
    const signed = await flow.formOf(site, request, reply);
    if (signed) {
      const notices = await flow.changes.signOutHere(flow.actorOf(site, signed, request), signed.sessionRow);
      if (notices > 0) flow.deps.logoutNoticesQueued();
    }
    // The provider's session cookie names a session that no longer exists: it goes too.
    reply.clearCookie(ISSUER_SESSION_COOKIE, { path: site.site.mountPath || '/', httpOnly: true, sameSite: 'lax', secure: flow.secure(site) });
    return html(reply, 200, accountMessagePage(site.links, 'signedOut', site.brand));
  });
}
