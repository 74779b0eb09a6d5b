import type { FastifyInstance } from 'fastify';
import { isCleanText, isEmail, returnsToUnverifiedApp, TEXT_MAX_LENGTH } from '@latchkey/domain';
import type { RequestRefusal } from '../login-codes.service.ts';
import { InteractionGone, linksFor, page, type SignInFlow, type UidRequest } from './flow.ts';
import { requestOrigin, type Identity } from './site.ts';
import { continueToAppPage, emailPage, textsOf, type PageBrand } from './views.ts';

/** Why no code was sent, in the page's words (texts.ts). */
function tooManyCodes(brand: PageBrand, limit: RequestRefusal, startAgain: string): string {
  const texts = textsOf(brand).tooManyCodes;
  return limit === 'interaction' ? texts.interaction(startAgain) : texts[limit];
}

/** Page 1's field as an email address (a site without `verification`), or null. */
function emailIdentity(typed: string): Identity | null {
  const email = typed.toLowerCase();
  return email && email.length <= TEXT_MAX_LENGTH && isEmail(email) ? { type: 'email', value: email } : null;
}

/** A login_hint as page 1's field may show it: a clean text of at most the field's length, else nothing. */
function loginHintOf(hint: unknown): string {
  return typeof hint === 'string' && hint.trim().length <= TEXT_MAX_LENGTH && isCleanText(hint.trim()) ? hint.trim() : '';
}

/**
 * Page 1, the identity: the address (or user id) is asked for; a user with a passkey is sent to it,
 * anyone else is sent a code (or the site's verification starts). A browser already signed in only
 * confirms a native app (RFC 8252 §8.6) or goes straight back to the client.
 */
export function registerIdentityStep(ui: FastifyInstance, flow: SignInFlow, base: string): void {
  ui.get(base, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const consent = await flow.consentStep(site, request, reply);
    if (consent) {
      // RFC 8252 §8.6: an app returning to a private-use scheme or a loopback address cannot be
      // told from another app claiming the same; a signed-in person confirms it is theirs.
      // A native app's, or any public client's (a single-page app's loopback URI left from development
      // is as open to another local process); a web app proves itself with its secret, so one returning
      // to localhost in development is not asked (issue 22).
      const redirectUri = consent.details.params.redirect_uri;
      const client = await site.provider.Client.find(String(consent.details.params.client_id));
      const unverified = client?.applicationType === 'native' || client?.clientAuthMethod === 'none';
      if (unverified && typeof redirectUri === 'string' && returnsToUnverifiedApp(redirectUri)) {
        return page(reply, 200, continueToAppPage(linksFor(site, consent.details.uid), site.brand));
      }
      const grantId = await flow.grantFor(site, consent.details, consent.accountId);
      return flow.finish(site, request, reply, { consent: { grantId } });
    }
    const step = await flow.loginStep(site, request, reply);
    if (!step) return reply;
    // The address a code was sent to in this interaction, else the client's login_hint (OpenID
    // Connect Core §3.1.2.1), else nothing.
    const email = (await site.loginCodes.pendingEmail(step.uid)) ?? loginHintOf(step.params.login_hint);
    // docs/decisions/0047: where the issuer has a relying party of its own, passkeys are offered here.
    const passkey = site.passkeys ? await site.passkeys.firstPage(flow.stepContext(step, site, request, reply)) : null;
    return page(reply, 200, emailPage(linksFor(site, step.uid), { email, ...(passkey ? { passkey } : {}) }, site.brand));
  });

  // "Continue to the app" (RFC 8252 §8.6, above): the person confirms the app is theirs.
  ui.post(`${base}/continue`, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const consent = await flow.consentStep(site, request, reply);
    if (!consent) throw new InteractionGone();
    const grantId = await flow.grantFor(site, consent.details, consent.accountId);
    return flow.finish(site, request, reply, { consent: { grantId } });
  });

  ui.post(`${base}/email`, async (request: UidRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    const details = await flow.loginStep(site, request, reply);
    if (!details) return reply;
    const links = linksFor(site, details.uid);
    // Page 1 shown again (a bad address, a refusal) keeps its passkey request (docs/decisions/0047).
    const again = async (status: number, email: string, error: string) => {
      const passkey = site.passkeys ? await site.passkeys.firstPage(flow.stepContext(details, site, request, reply)) : null;
      return page(reply, status, emailPage(links, { email, error, ...(passkey ? { passkey } : {}) }, site.brand));
    };
    // docs/decisions/0018: the site's identity type (an address, or an alphanumeric user id).
    const typed = (request.body?.email ?? '').trim();
    const identity = site.verification ? site.verification.identityOf(typed) : emailIdentity(typed);
    if (!identity) {
      const error = site.verification?.invalidIdentity ?? textsOf(site.brand).invalidEmail;
      return again(400, typed.toLowerCase(), error);
    }
    const email = identity.value;
    // A user with a passkey is asked for it (docs/decisions/0013: the address comes first, so
    // only this issuer's credentials of this user are offered), unless they asked for a code.
    const wantsCode = request.body?.method === 'code' || request.body?.resend !== undefined;
    if (site.passkeys && !wantsCode) {
      const outcome = await site.passkeys.afterEmail(flow.stepContext(details, site, request, reply), email, identity.type);
      if (outcome) return flow.settle(site, request, reply, details, outcome);
    }
    if (site.verification) {
      const resend = request.body?.resend !== undefined;
      const outcome = await site.verification.start(flow.stepContext(details, site, request, reply), identity, { resend });
      if (outcome) return flow.settle(site, request, reply, details, outcome);
    }
    // Every well-formed address without a passkey gets a code: whether it may sign in is decided
    // later.
    const sent = await site.loginCodes.request(email, details.uid, request.ip);
    if (!sent.ok && sent.reason === 'mail_failed') {
      request.log.error({ err: sent.error }, 'could not send a sign-in code');
      await site.events?.mailFailed(requestOrigin(request, details.params.client_id), email);
      return again(503, email, textsOf(site.brand).mailFailed);
    }
    if (!sent.ok) {
      return again(429, email, tooManyCodes(site.brand, sent.limit, site.startAgain));
    }
    return reply.redirect(`${links.codeAction}${request.body?.resend ? '?resent=1' : ''}`, 303);
  });
}
