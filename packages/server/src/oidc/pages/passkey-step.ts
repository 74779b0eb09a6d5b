import type { FastifyInstance } from 'fastify';
import { InteractionGone, type SignInFlow, type UidRequest } from './flow.ts';
import type { PasskeySteps } from './site.ts';

type Step = Exclude<keyof PasskeySteps, 'afterEmail' | 'afterCode' | 'quickCodes' | 'firstPage' | 'recoveryLink'>;

/**
 * The passkey pages (docs/decisions/0013, 0017): use the passkey, create one after the identity
 * was verified, a QuickCode to enter or shown. The site's passkey steps answer each.
 */
export function registerPasskeyStep(ui: FastifyInstance, flow: SignInFlow, base: string): void {
  const passkeyRoute = (method: 'get' | 'post', path: string, step: Step) =>
    ui[method](`${base}/${path}`, async (request: UidRequest, reply) => {
      const site = await flow.siteOf(request, reply);
      const details = await flow.loginStep(site, request, reply);
      if (!details) return reply;
      if (!site.passkeys) throw new InteractionGone();
      const outcome = await site.passkeys[step](flow.stepContext(details, site, request, reply), request.body ?? {});
      return flow.settle(site, request, reply, details, outcome);
    });
  passkeyRoute('get', 'passkey', 'passkeyPage');
  passkeyRoute('post', 'passkey', 'passkeySubmit');
  passkeyRoute('post', 'passkey/discover', 'discoverSubmit');
  passkeyRoute('get', 'register', 'registerPage');
  passkeyRoute('post', 'register', 'registerSubmit');
  passkeyRoute('get', 'quickcode', 'quickCodePage');
  passkeyRoute('post', 'quickcode', 'quickCodeSubmit');
  passkeyRoute('post', 'quickcode/continue', 'quickCodeContinue');
  passkeyRoute('get', 'recovery', 'recoveryPage');
  passkeyRoute('post', 'recovery', 'recoverySubmit');
}
