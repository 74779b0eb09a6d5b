import type { FastifyInstance, FastifyReply } from 'fastify';
import { findProjectUser } from '../people/end-users.repository.ts';
import { escapeHtml, signInPage, type PageBrand } from '../oidc/pages/views.ts';
import type { AccountFlow } from './account-flow.ts';
import { html, type AccountRequest } from './account-site.ts';
import { hidden, pathOf, type AccountLinks } from './account-views.ts';
import { recoveryTextsOf } from '../oidc/recovery-codes.ts';

/**
 * "This wasn't me" (issue 37, docs/decisions/0051): the link in the notice of an email-only sign-in
 * ends the email recovery it started, so no passkey can be added with it. Opening the link only
 * asks (a mail scanner that follows links ends nothing); the button posts the token. No sign-in:
 * the token, single use and stored hashed, is the proof.
 */
function stopPage(links: AccountLinks, brand: PageBrand, state: { token: string } | 'done' | 'gone'): string {
  const r = recoveryTextsOf(brand);
  const body =
    state === 'done'
      ? `<p class="status" role="status">${escapeHtml(r.notMeDone)}</p>`
      : state === 'gone'
        ? `<p class="error" role="alert">${escapeHtml(r.notMeGone)}</p>`
        : `<p>${escapeHtml(r.notMeText)}</p>
<form method="post" action="${escapeHtml(pathOf(links, 'recovery', 'stop'))}">${hidden('t', state.token)}<button class="primary danger" type="submit">${escapeHtml(r.notMeButton)}</button></form>`;
  return signInPage(r.notMeHeading, `<h1>${escapeHtml(r.notMeHeading)}</h1>\n${body}`, brand);
}

export function registerRecoveryStopStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  const answer = async (request: AccountRequest, reply: FastifyReply, token: string | undefined, stop: boolean) => {
    const site = await flow.siteOf(request, reply);
    if (!site) return reply;
    const { projectId } = site.state;
    const recovery = typeof token === 'string' && token.length <= 100 ? await flow.recovery.openByToken(projectId, token) : null;
    if (!recovery) return html(reply, 404, stopPage(site.links, site.brand, 'gone'));
    if (!stop) return html(reply, 200, stopPage(site.links, site.brand, { token: token as string }));
    const user = await findProjectUser(flow.deps.db, projectId, recovery.userId);
    const stopped = user ? await flow.recovery.stop(projectId, recovery, user.identity, flow.originOf(request)) : false;
    return html(reply, stopped ? 200 : 404, stopPage(site.links, site.brand, stopped ? 'done' : 'gone'));
  };
  pages.get(`${page}/recovery/stop`, async (request: AccountRequest, reply) => answer(request, reply, request.query.t, false));
  pages.post(`${page}/recovery/stop`, async (request: AccountRequest, reply) => answer(request, reply, request.body?.t, true));
}
