import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Interaction } from 'oidc-provider';
import { InteractionGone, linksFor, page, type SignInFlow, type UidRequest } from './flow.ts';
import { requestOrigin, type StepContext } from './site.ts';

/** docs/decisions/0018: the pages of an Email Link or Custom verification under way. */
export function registerVerificationStep(ui: FastifyInstance, flow: SignInFlow, base: string): void {
  const verificationRoute = (path: string, step: 'waitPage' | 'status' | 'resume') =>
    ui.get(`${base}/${path}`, async (request: UidRequest, reply) => {
      const site = await flow.siteOf(request, reply);
      const details = await flow.loginStep(site, request, reply);
      if (!details) return reply;
      if (!site.verification) throw new InteractionGone();
      return flow.settle(site, request, reply, details, await site.verification[step](flow.stepContext(details, site, request, reply)));
    });
  verificationRoute('verify', 'waitPage');
  verificationRoute('verify/status', 'status');
  verificationRoute('verified', 'resume');

  /**
   * The emailed link, opened in any browser: in the one holding the interaction it goes on there;
   * in another, the person confirms it (a POST) and goes back to the first window.
   */
  const openLink = async (request: UidRequest, reply: FastifyReply) => {
    const site = await flow.siteOf(request, reply);
    if (!site.verification) throw new InteractionGone();
    let details: Interaction | null = null;
    try {
      details = await flow.interaction(site, request, reply);
    } catch (error) {
      if (!(error instanceof InteractionGone) && (error as { name?: string }).name !== 'SessionNotFound') throw error;
    }
    const sameBrowser = details !== null && details.prompt.name === 'login';
    const ctx: StepContext = details
      ? flow.stepContext(details, site, request, reply)
      : { uid: request.params.uid, links: linksFor(site, request.params.uid), request, reply, origin: requestOrigin(request, null) };
    const confirm = request.method === 'POST';
    const token = (confirm ? request.body?.token : request.query.token) ?? '';
    const outcome = await site.verification.openLink(ctx, token, { sameBrowser, confirm });
    if ('redirect' in outcome) return reply.redirect(outcome.redirect, 303);
    if ('page' in outcome) return page(reply, outcome.status, outcome.page);
    throw new Error('a link step answers a page or a redirect');
  };
  ui.get(`${base}/link`, openLink);
  ui.post(`${base}/link`, openLink);
}
