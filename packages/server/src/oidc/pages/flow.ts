import type { FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { ISSUER_SCOPES } from '../issuer-provider.ts';
import { formTargetOf } from '../mount.ts';
import { deviceAmr } from '../payloads.repository.ts';
import { asksForJson, requestOrigin, type FormBody, type SignInSite, type StepContext, type StepOutcome, type VerifiedIdentity } from './site.ts';
import type { InteractionLinks, PasskeySignal } from './views.ts';

/**
 * What every step of the sign-in pages shares (identity-step.ts, code-step.ts, verification-step.ts,
 * passkey-step.ts): the interaction a request belongs to, the site it is read for, and how a step's
 * outcome finishes the authorization request.
 */

/** The interaction is not this browser's, has ended, or is not at this step: the page says "expired". */
export class InteractionGone extends Error {}

export type UidRequest = FastifyRequest<{
  Params: { uid: string } & Record<string, string>;
  Body: FormBody;
  Querystring: Record<string, string | undefined>;
}>;

export function linksFor(site: SignInSite, uid: string): InteractionLinks {
  const base = `${site.mountPath}/interaction/${encodeURIComponent(uid)}`;
  const links: InteractionLinks = { emailAction: `${base}/email`, codeAction: `${base}/code`, emailPage: base, cancel: `${base}/cancel` };
  const withQuickCode = site.passkeys?.quickCodes ? { ...links, quickCode: `${base}/quickcode` } : links;
  const recovery = site.passkeys?.recoveryLink;
  return recovery ? { ...withQuickCode, recovery: { href: `${base}/recovery`, text: recovery } } : withQuickCode;
}

export const page = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);

/**
 * How a mount finds the site a request is read for. `interactionOf`: the browser's interaction at a
 * provider, or null (none, ended) — read once a request, so a site may read its parameters
 * (`ui_locales`) before the steps do, at no second query.
 */
export type SiteOf = (request: UidRequest, interactionOf: (provider: Provider) => Promise<Interaction | null>) => Promise<SignInSite>;

export class SignInFlow {
  /** The site each request was read for (its error page and CSP follow it). */
  readonly sites = new WeakMap<FastifyRequest, SignInSite>();
  /** Where the interaction of a request returns to (its client's redirect URI origin): see signInCsp. */
  readonly returnsTo = new WeakMap<FastifyRequest, string>();
  /** The interaction a request's browser is in, once read. */
  readonly #details = new WeakMap<FastifyRequest, Interaction>();

  readonly site: SiteOf;

  constructor(site: SiteOf) {
    this.site = site;
  }

  async siteOf(request: UidRequest, reply: FastifyReply): Promise<SignInSite> {
    const site = await this.site(request, (provider) => this.#interactionDetails(provider, request, reply).catch(() => null));
    this.sites.set(request, site);
    return site;
  }

  async #interactionDetails(provider: Provider, request: UidRequest, reply: FastifyReply): Promise<Interaction> {
    const read = this.#details.get(request);
    if (read) return read;
    const details = await provider.interactionDetails(request.raw, reply.raw);
    this.#details.set(request, details);
    return details;
  }

  /** The interaction this browser is in, matching the address (the provider's cookie is the CSRF guard). */
  async interaction(site: SignInSite, request: UidRequest, reply: FastifyReply): Promise<Interaction> {
    const details = await this.#interactionDetails(site.provider, request, reply);
    if (details.uid !== request.params.uid) throw new InteractionGone();
    const clientOrigin = formTargetOf(details.params.redirect_uri);
    if (clientOrigin) this.returnsTo.set(request, clientOrigin);
    return details;
  }

  /**
   * Resumes the authorization request with `result` (login, consent or an OAuth error). A page
   * script that asked for JSON gets `{ redirect, signals }` instead of the 303 (docs/decisions/0048).
   */
  async finish(
    site: SignInSite,
    request: UidRequest,
    reply: FastifyReply,
    result: Parameters<Provider['interactionResult']>[2],
    signals: PasskeySignal[] = [],
  ) {
    // What the provider's interactionResult does, on the interaction this request read already
    // (it would read it again): the result replaces any before it, saved for the rest of its life.
    const details = this.#details.get(request);
    let returnTo: string;
    if (details) {
      details.result = result;
      await details.save(details.exp - Math.floor(Date.now() / 1000));
      returnTo = details.returnTo;
    } else {
      returnTo = await site.provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
    }
    if (asksForJson(request))
      return reply
        .status(200)
        .type('application/json; charset=utf-8')
        .send(JSON.stringify({ redirect: returnTo, signals }));
    return reply.redirect(returnTo, 303);
  }

  /** Consent is implied: signing in from the application is the person's consent to it. */
  async grantFor(site: SignInSite, details: Interaction, accountId: string): Promise<string> {
    const grant = details.grantId ? await site.provider.Grant.find(details.grantId) : undefined;
    const target = grant ?? new site.provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const requested = String(details.params.scope ?? 'openid').split(' ');
    target.addOIDCScope(requested.filter((s) => (ISSUER_SCOPES as readonly string[]).includes(s)).join(' '));
    return target.save();
  }

  /** Signs `accountId` in; `deviceId`: the passkey that proved it, which the provider session then names (revocation ends it). */
  async signInAs(
    site: SignInSite,
    request: UidRequest,
    reply: FastifyReply,
    details: Interaction,
    accountId: string,
    deviceId?: string,
    signals?: PasskeySignal[],
  ) {
    const refused = await site.refuseAccount?.(this.stepContext(details, site, request, reply), accountId);
    if (refused) return page(reply, 403, refused);
    return this.#signIn(site, request, reply, details, accountId, deviceId, signals);
  }

  /** signInAs once the account is known not to be refused. */
  async #signIn(
    site: SignInSite,
    request: UidRequest,
    reply: FastifyReply,
    details: Interaction,
    accountId: string,
    deviceId?: string,
    signals?: PasskeySignal[],
  ) {
    const grantId = await this.grantFor(site, details, accountId);
    const login = deviceId === undefined ? { accountId } : { accountId, amr: [deviceAmr(deviceId)] };
    return this.finish(site, request, reply, { login, consent: { grantId } }, signals);
  }

  stepContext(details: Interaction, site: SignInSite, request: UidRequest, reply: FastifyReply): StepContext {
    return { uid: details.uid, links: linksFor(site, details.uid), request, reply, origin: requestOrigin(request, details.params.client_id) };
  }

  /** Carries out what a step answered. */
  async settle(site: SignInSite, request: UidRequest, reply: FastifyReply, details: Interaction, outcome: StepOutcome): Promise<FastifyReply> {
    if ('redirect' in outcome) return reply.redirect(outcome.redirect, 303);
    if ('page' in outcome) return page(reply, outcome.status, outcome.page);
    if ('json' in outcome) return reply.status(outcome.status).type('application/json; charset=utf-8').send(JSON.stringify(outcome.json));
    if ('verified' in outcome) return this.signInVerified(site, request, reply, details, outcome.verified);
    return this.signInAs(site, request, reply, details, outcome.accountId, outcome.deviceId, outcome.signals);
  }

  /** An identity verified (emailed code, link, custom): the passkey offer for a user without one, else signed in. */
  async signInVerified(site: SignInSite, request: UidRequest, reply: FastifyReply, details: Interaction, verified: VerifiedIdentity) {
    const { accountId, identity, method } = verified;
    // A blocked user is refused before being offered a passkey too.
    const refused = await site.refuseAccount?.(this.stepContext(details, site, request, reply), accountId);
    if (refused) return page(reply, 403, refused);
    const next = site.passkeys ? await site.passkeys.afterCode(this.stepContext(details, site, request, reply), accountId, identity, method) : null;
    if (next) {
      // docs/decisions/0050 offers a passkey also to a person holding passkeys elsewhere: the email
      // sign-in's notice (0051) is theirs as much as when they are signed in at once.
      await site.afterFallbackSignIn?.(this.stepContext(details, site, request, reply), accountId, method);
      return this.settle(site, request, reply, details, next);
    }
    await site.events?.signedInWithCode(requestOrigin(request, details.params.client_id), identity, accountId, method);
    await site.afterFallbackSignIn?.(this.stepContext(details, site, request, reply), accountId, method);
    return this.#signIn(site, request, reply, details, accountId);
  }

  /** The interaction in its login prompt, unless the site refuses it (then the page is sent). */
  async loginStep(site: SignInSite, request: UidRequest, reply: FastifyReply): Promise<Interaction | null> {
    const details = await this.interaction(site, request, reply);
    const refused = await site.refusal(details);
    if (refused !== null) {
      await site.events?.refused(requestOrigin(request, details.params.client_id));
      await page(reply, 403, refused);
      return null;
    }
    if (details.prompt.name !== 'login') throw new InteractionGone();
    return details;
  }

  /** A signed-in browser's interaction that only needs consent (and is not refused), or null. */
  async consentStep(site: SignInSite, request: UidRequest, reply: FastifyReply): Promise<{ details: Interaction; accountId: string } | null> {
    const details = await this.interaction(site, request, reply);
    const accountId = details.session?.accountId;
    if (details.prompt.name !== 'consent' || !accountId || (await site.refusal(details)) !== null) return null;
    return { details, accountId };
  }
}
