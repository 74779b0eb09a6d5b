import type { FastifyInstance } from 'fastify';
import { codeStep, passwordOption } from './code-step.ts';
import { linksFor, page, type SignInFlow, type UidRequest } from './flow.ts';
import { requestOrigin } from './site.ts';
import { codePage, textsOf } from './views.ts';

/** Longer than any password a form of ours takes (the field's maxlength). */
const PASSWORD_MAX_LENGTH = 256;

/**
 * The code page's other form (docs/decisions/0052): an imported person's previous password, once,
 * in place of the emailed code and under its limits (login-codes verifyWith). Right, the hash goes
 * and the person goes on as after a code: straight to the passkey offer, where the page script
 * first asks the browser for its automatic upgrade (conditional create).
 */
export function registerPasswordStep(ui: FastifyInstance, flow: SignInFlow, base: string): void {
  ui.post(`${base}/password`, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const step = await codeStep(flow, site, request, reply);
    if (step === null) return reply;
    const passwords = site.importedPasswords;
    if (step === 'no-code' || !passwords) return reply.redirect(linksFor(site, request.params.uid).emailPage, 303);
    const { details, links, email } = step;
    const texts = textsOf(site.brand);
    const password = request.body?.password ?? '';
    if (password === '' || password.length > PASSWORD_MAX_LENGTH) {
      return page(reply, 400, codePage(links, { email, ...(await passwordOption(site, links, texts.wrongPassword)) }, site.brand));
    }
    const result = await site.loginCodes.verifyWith(details.uid, request.ip, (address) => passwords.check(address, password));
    if (!result.ok) {
      if (result.reason === 'none') return reply.redirect(links.emailPage, 303);
      await site.events?.codeRefused(requestOrigin(request, details.params.client_id), email, `password_${result.reason}`);
      // The last try used, the code is gone too: the person asks for a new one.
      const error =
        result.reason !== 'wrong' ? texts.codeErrors[result.reason] : result.attemptsLeft === 0 ? texts.codeErrors.too_many : texts.wrongPassword;
      return page(reply, 400, codePage(links, { email, ...(await passwordOption(site, links, error)) }, site.brand));
    }
    await passwords.used(result.email);
    const accountId = await site.accountFor(result.email);
    return flow.signInVerified(site, request, reply, details, { accountId, identity: result.email, method: 'imported_password' });
  });
}
