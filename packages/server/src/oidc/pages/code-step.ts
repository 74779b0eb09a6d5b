import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Interaction } from 'oidc-provider';
import { linksFor, page, type SignInFlow, type UidRequest } from './flow.ts';
import { requestOrigin, type SignInSite } from './site.ts';
import { codePage, textsOf, type InteractionLinks } from './views.ts';

/**
 * The code page's interaction: in the login prompt, with a code sent to an address during it;
 * 'no-code' when no code was sent yet (the browser goes back to page 1); null when refused.
 */
export async function codeStep(
  flow: SignInFlow,
  site: SignInSite,
  request: UidRequest,
  reply: FastifyReply,
): Promise<{ details: Interaction; links: InteractionLinks; email: string } | 'no-code' | null> {
  const details = await flow.loginStep(site, request, reply);
  if (!details) return null;
  const email = await site.loginCodes.pendingEmail(details.uid);
  return email ? { details, links: linksFor(site, details.uid), email } : 'no-code';
}

/** The code page's previous-password form (docs/decisions/0052), where the site offers one. */
export async function passwordOption(
  site: SignInSite,
  links: InteractionLinks,
  error?: string,
): Promise<{ password?: { action: string; error?: string } }> {
  if (!site.importedPasswords || !(await site.importedPasswords.offered())) return {};
  return { password: { action: `${links.emailPage}/password`, ...(error ? { error } : {}) } };
}

/** Page 2, the emailed code: six digits, a few tries; right, the identity is verified. */
export function registerCodeStep(ui: FastifyInstance, flow: SignInFlow, base: string): void {
  ui.get(`${base}/code`, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const step = await codeStep(flow, site, request, reply);
    if (step === null) return reply;
    if (step === 'no-code') return reply.redirect(linksFor(site, request.params.uid).emailPage, 303);
    const notice = request.query.resent ? textsOf(site.brand).newCodeSent : undefined;
    const password = await passwordOption(site, step.links);
    return page(reply, 200, codePage(step.links, { email: step.email, ...(notice ? { notice } : {}), ...password }, site.brand));
  });

  ui.post(`${base}/code`, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const step = await codeStep(flow, site, request, reply);
    if (step === null) return reply;
    if (step === 'no-code') return reply.redirect(linksFor(site, request.params.uid).emailPage, 303);
    const { details, links, email } = step;
    const code = (request.body?.code ?? '').replace(/\s+/g, '');
    const password = await passwordOption(site, links);
    if (!/^\d{6}$/.test(code)) return page(reply, 400, codePage(links, { email, error: textsOf(site.brand).codeFormat, ...password }, site.brand));

    const result = await site.loginCodes.verify(details.uid, code, request.ip);
    if (!result.ok) {
      if (result.reason === 'none') return reply.redirect(links.emailPage, 303);
      await site.events?.codeRefused(requestOrigin(request, details.params.client_id), email, result.reason);
      const texts = textsOf(site.brand);
      const error = result.reason === 'wrong' && result.attemptsLeft === 0 ? texts.wrongCodeLast : texts.codeErrors[result.reason];
      return page(reply, 400, codePage(links, { email, error, ...password }, site.brand));
    }
    const accountId = await site.accountFor(result.email);
    return flow.signInVerified(site, request, reply, details, { accountId, identity: result.email, method: 'email_code' });
  });
}
