import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { isEmail, returnsToUnverifiedApp, TEXT_MAX_LENGTH } from '@latchkey/domain';
import { decodeUtf8Strictly } from '../http/input-guard.ts';
import { setSecurityHeaders, STRICT_TRANSPORT_SECURITY } from '../http/security-headers.ts';
import type { LoginCodes, RequestRefusal } from './login-codes.service.ts';
import { deviceAmr } from './oidc-payloads.repository.ts';
import {
  codePage,
  continueToAppPage,
  emailPage,
  errorPage,
  STYLESHEET,
  STYLESHEET_PATH,
  textsOf,
  type InteractionLinks,
  type PageBrand,
} from './views.ts';

/**
 * The machinery every OpenID provider of this server shares — the console's built-in one under
 * /idp and each project's issuer under /p/{project}: mounting oidc-provider on Fastify with its
 * scheme and host pinned to PUBLIC_URL, and the sign-in pages (email, then an emailed code).
 */

/**
 * The sign-in pages allow nothing but our own stylesheet and scripts, and forms posting to us.
 * `returnsTo`: the origin of the client's redirect URI (its scheme for a native app's private-use
 * scheme). Chromium applies form-action to every redirect that follows a form's submission, and the
 * last form of a sign-in ends in a redirect to the client (POST → /auth/{uid} → redirect_uri), so
 * that origin is allowed too. `logoFrom`: the origin of the project's logo (views.ts pageLogo), the
 * one other place images may come from.
 */
export function signInCsp(returnsTo?: string, logoFrom?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${logoFrom ? ` ${logoFrom}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${returnsTo ? ` ${returnsTo}` : ''}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

export const SIGN_IN_CSP = signInCsp();

// Schemes never allowed as a form's destination, even were a redirect URI to name one.
const NO_FORM_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:']);

/**
 * Where a redirect URI (already matched by the provider against the client's) may be named in
 * form-action: the origin of an http(s) URI; for a native app's private-use scheme
 * (`com.example.app:/cb`, RFC 8252 §7.1) that scheme alone (`com.example.app:`, a CSP scheme-source:
 * the URL parser gives only letters, digits, '+', '-' and '.'); else undefined.
 */
function originOf(redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string') return undefined;
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !NO_FORM_SCHEMES.has(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

const SITE_ORIGIN = Symbol('siteOrigin');
type RoutedMessage = IncomingMessage & { [SITE_ORIGIN]?: URL };

/**
 * Marks a request routed by its Host to a project's custom domain (provider/custom-domains.ts),
 * before routing: it is pinned to that origin instead of PUBLIC_URL. The origin comes from the
 * project's stored settings, never from what the client sent.
 */
export function routeToOrigin(raw: IncomingMessage, origin: URL): void {
  (raw as RoutedMessage)[SITE_ORIGIN] = origin;
}

/** The custom domain's origin a request was routed to, or undefined (PUBLIC_URL's). */
export function routedOrigin(raw: IncomingMessage): URL | undefined {
  return (raw as RoutedMessage)[SITE_ORIGIN];
}

/**
 * The provider builds its URLs and decides on Secure cookies from the request (Host,
 * X-Forwarded-Proto/-Host, with provider.proxy). Those are pinned to PUBLIC_URL here (or to the
 * custom domain the request was routed to, routeToOrigin), so neither a forged Host nor a forged
 * X-Forwarded-Proto changes the issuer's endpoints or the cookies; the client address is the one
 * Fastify established under TRUST_PROXY.
 */
export function pinToPublicUrl(request: FastifyRequest, publicUrl: URL): void {
  const site = routedOrigin(request.raw) ?? publicUrl;
  const headers = request.raw.headers;
  const clientIp = request.ip;
  delete headers.forwarded;
  headers.host = site.host;
  headers['x-forwarded-host'] = site.host;
  headers['x-forwarded-proto'] = site.protocol.slice(0, -1);
  headers['x-forwarded-for'] = clientIp;
}

/**
 * HSTS follows the origin a page is served at — a custom domain's scheme, not PUBLIC_URL's
 * (docs/decisions/0016) — over the server-wide header installSecurityHeaders set before.
 */
function strictTransportFor(request: FastifyRequest, reply: FastifyReply, publicUrl: URL): void {
  if ((routedOrigin(request.raw) ?? publicUrl).protocol === 'https:') reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  else reply.removeHeader('Strict-Transport-Security');
}

/** The provider and its pages are not part of the management API document. */
function hideFromOpenApi(context: FastifyInstance): void {
  context.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });
}

type ProviderRequest = FastifyRequest<{ Params: Record<string, string> }>;

/** Which provider answers a request, and the path it is mounted on; null: answered already (reply sent). */
export type ResolveProvider = (request: ProviderRequest, reply: FastifyReply) => Promise<{ provider: Provider; mountPath: string } | null>;

/**
 * Mounts oidc-provider under `route` (e.g. `/idp/*`, `/p/:project/*`). The provider reads its own
 * request bodies, so its routes get the raw request (reply.hijack) and no body parser.
 */
export async function mountProviders(app: FastifyInstance, options: { route: string; publicUrl: string; resolve: ResolveProvider }): Promise<void> {
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const handlerOf = (provider: Provider) => {
    let handler = handlers.get(provider);
    if (!handler) {
      handler = provider.callback();
      handlers.set(provider, handler);
    }
    return handler;
  };
  const origin = new URL(options.publicUrl);
  await app.register(async (raw) => {
    hideFromOpenApi(raw);
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    raw.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    // The pages answered here before the provider (refusals, a moved issuer).
    raw.addHook('onSend', async (request, reply, payload) => {
      strictTransportFor(request, reply, origin);
      return payload;
    });
    raw.all(options.route, async (request: ProviderRequest, reply) => {
      const target = await options.resolve(request, reply);
      if (!target) return reply;
      reply.hijack();
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      // oidc-provider derives its mount path from originalUrl minus url (its "mounting" docs).
      req.originalUrl = req.url;
      req.url = (req.url ?? '/').slice(target.mountPath.length) || '/';
      setSecurityHeaders(reply.raw, SIGN_IN_CSP, { https: (routedOrigin(req) ?? origin).protocol === 'https:' });
      await handlerOf(target.provider)(req, reply.raw);
    });
  });
}

/** The pages' one stylesheet, served once for every provider's pages. */
export function registerSignInStylesheet(app: FastifyInstance): void {
  app.get(STYLESHEET_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  );
}

/** How the pages of one provider read and what a finished sign-in becomes. */
export interface SignInSite {
  provider: Provider;
  loginCodes: LoginCodes;
  /** The path the provider is mounted on (`/idp`, `/p/{project}`): its interactions live under it. */
  mountPath: string;
  brand: PageBrand;
  /** Where error pages lead back to, or null (a project's end user returns to their app). */
  home: string | null;
  /** Said after a problem: what to do next. */
  startAgain: string;
  /** The OAuth error Cancel answers the client with. */
  cancelError: string;
  scopes: readonly string[];
  /** The provider account of a verified address. */
  accountFor(email: string): Promise<string>;
  /** A page that refuses the sign-in before it starts (disabled application, closed project), or null. */
  refusal(details: Interaction): Promise<string | null>;
  /** Passkey pages between the address and the sign-in (project issuers, docs/decisions/0013). */
  passkeys?: PasskeySteps;
  /** What the pages report as events (project issuers, docs/decisions/0014); the console's provider has none. */
  events?: SignInEvents;
  /** The project's identity type and verification method (docs/decisions/0018); none: email + emailed code. */
  verification?: VerificationSteps;
}

/** Where a request of the sign-in pages comes from, for its events. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
  clientId: string | null;
}

/** The events of the pages' own steps; the passkey steps report theirs themselves. */
export interface SignInEvents {
  /** The sign-in was refused before it started (disabled application, closed project). */
  refused(origin: RequestOrigin): Promise<void>;
  /** An emailed code (or `method`, docs/decisions/0018) signed `email` in (no passkey was used or created). */
  signedInWithCode(origin: RequestOrigin, email: string, accountId: string, method?: string): Promise<void>;
  /** A code was not accepted (`reason`: wrong, used, expired, too_many, address_locked). */
  codeRefused(origin: RequestOrigin, email: string, reason: string): Promise<void>;
  /** The code could not be mailed. */
  mailFailed(origin: RequestOrigin, email: string): Promise<void>;
}

/** The origin of a request in an interaction: client address, user agent, application. */
export function requestOrigin(request: FastifyRequest, clientId: unknown): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent : null, clientId: typeof clientId === 'string' ? clientId : null };
}

/**
 * What a step answers: another page of the flow, a page to show, a JSON answer (a page script's
 * question), the signed-in account, or a verified identity (docs/decisions/0018) that goes on as
 * after an emailed code (the passkey offer for a user without one).
 */
export type StepOutcome =
  | { redirect: string }
  | { status: number; page: string }
  | { status: number; json: unknown }
  | { accountId: string; deviceId?: string }
  | { verified: VerifiedIdentity };

/** An identity as page 1 takes it (spec §3 identityType): an email address or an alphanumeric user id, lower-cased. */
export interface Identity {
  type: 'email' | 'alphanumeric';
  value: string;
}

/** A user whose identity a verification method proved: their account, identity and the method (`email_code`, `email_link`, `custom`). */
export interface VerifiedIdentity {
  accountId: string;
  identity: string;
  method: string;
}

/**
 * How a site's new users verify their identity when it is not (only) an emailed code
 * (docs/decisions/0018: Email Link, Custom): page 1's rule for the identity, the step that starts
 * the verification, and the pages of one under way.
 */
export interface VerificationSteps {
  /** Page 1's field as this site's identity, or null (the page then says `invalidIdentity`). */
  identityOf(typed: string): Identity | null;
  invalidIdentity: string;
  /** A user to verify (no passkey, or asked to verify again): the next page, or null for the emailed code. */
  start(ctx: StepContext, identity: Identity, options: { resend: boolean }): Promise<StepOutcome | null>;
  /** `/verify`: waiting for the link to be opened, or the way to the project's verification. */
  waitPage(ctx: StepContext): Promise<StepOutcome>;
  /** `/verify/status`: the waiting page's script asks whether the verification was confirmed. */
  status(ctx: StepContext): Promise<StepOutcome>;
  /** `/verified`: the interaction goes on with its confirmed verification. */
  resume(ctx: StepContext): Promise<StepOutcome>;
  /** `/link`: the emailed link opened; `sameBrowser` when this browser holds the interaction, `confirm` when posted. */
  openLink(ctx: StepContext, token: string, options: { sameBrowser: boolean; confirm: boolean }): Promise<StepOutcome>;
}

/** The interaction a step runs in (already checked: this browser's, in its login prompt, not refused). */
export interface StepContext {
  uid: string;
  links: InteractionLinks;
  request: FastifyRequest;
  reply: FastifyReply;
  /** Where the request comes from, for events. */
  origin: RequestOrigin;
}

/**
 * The passkey part of a site's sign-in: after page 1 a user with a passkey is sent to use it; after
 * the emailed code a user without one is offered to create one; each ceremony's page and answer.
 */
export interface PasskeySteps {
  /** Page 1 posted with a well-formed address: where to go instead of sending a code, or null. */
  afterEmail(ctx: StepContext, email: string, identityType?: Identity['type']): Promise<StepOutcome | null>;
  /** The code (or `verifiedBy`, docs/decisions/0018) verified `email`, the account `accountId`: a page before signing in, or null. */
  afterCode(ctx: StepContext, accountId: string, email: string, verifiedBy?: string): Promise<StepOutcome | null>;
  passkeyPage(ctx: StepContext): Promise<StepOutcome>;
  passkeySubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  registerPage(ctx: StepContext): Promise<StepOutcome>;
  registerSubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /** The project offers QuickCodes (docs/decisions/0017): page 1 links to the QuickCode page. */
  quickCodes: boolean;
  /** "I have a QuickCode": the address and the code, instead of verifying the address. */
  quickCodePage(ctx: StepContext): Promise<StepOutcome>;
  quickCodeSubmit(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
  /** After a QuickCode was shown: the sign-in it was issued in goes on. */
  quickCodeContinue(ctx: StepContext, form: FormBody): Promise<StepOutcome>;
}

/** Why no code was sent, in the page's words (page-texts.ts). */
function tooManyCodes(brand: PageBrand, limit: RequestRefusal, startAgain: string): string {
  const texts = textsOf(brand).tooManyCodes;
  return limit === 'interaction' ? texts.interaction(startAgain) : texts[limit];
}

class InteractionGone extends Error {}

/** Page 1's field as an email address (the console's provider, a site without `verification`), or null. */
function emailIdentity(typed: string): Identity | null {
  const email = typed.toLowerCase();
  return email && email.length <= TEXT_MAX_LENGTH && isEmail(email) ? { type: 'email', value: email } : null;
}

/**
 * A urlencoded form, or null when a name or value is not valid percent-encoded UTF-8 (URLSearchParams
 * would turn it into U+FFFD silently). Each field's own check (isEmail, the code's digits) refuses
 * control characters with a message on the page.
 */
function parseFormStrictly(body: string): Record<string, string> | null {
  const form: Record<string, string> = {};
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    try {
      const name = decodeURIComponent((equals === -1 ? pair : pair.slice(0, equals)).replaceAll('+', ' '));
      const value = equals === -1 ? '' : decodeURIComponent(pair.slice(equals + 1).replaceAll('+', ' '));
      form[name] = value;
    } catch {
      return null;
    }
  }
  return form;
}

export type FormBody = Record<string, string | undefined>;
type UidRequest = FastifyRequest<{
  Params: { uid: string } & Record<string, string>;
  Body: FormBody;
  Querystring: Record<string, string | undefined>;
}>;

function linksFor(site: SignInSite, uid: string): InteractionLinks {
  const base = `${site.mountPath}/interaction/${encodeURIComponent(uid)}`;
  const links: InteractionLinks = { emailAction: `${base}/email`, codeAction: `${base}/code`, emailPage: base, cancel: `${base}/cancel` };
  return site.passkeys?.quickCodes ? { ...links, quickCode: `${base}/quickcode` } : links;
}

/**
 * Serves the interaction pages of the providers mounted under `mountRoute` (`/idp`,
 * `/p/:project`): page 1 asks for the address, page 2 for the code mailed to it; then the
 * authorization request resumes. `site` tells, per request, which provider and how the pages read.
 */
export async function registerSignInPages(
  app: FastifyInstance,
  options: {
    mountRoute: string;
    publicUrl: string;
    fallback: Pick<SignInSite, 'brand' | 'home' | 'startAgain'>;
    site: (request: UidRequest) => Promise<SignInSite>;
    /** Serve the passkey pages (sites of this mount answer `passkeys`). */
    passkeys?: boolean;
  },
): Promise<void> {
  const origin = new URL(options.publicUrl);
  const sites = new WeakMap<FastifyRequest, SignInSite>();
  /** Where the interaction of a request returns to (its client's redirect URI origin): see signInCsp. */
  const returnsTo = new WeakMap<FastifyRequest, string>();
  const siteOf = async (request: UidRequest): Promise<SignInSite> => {
    const site = await options.site(request);
    sites.set(request, site);
    return site;
  };
  const base = `${options.mountRoute}/interaction/:uid`;

  await app.register(async (ui) => {
    hideFromOpenApi(ui);
    ui.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    // The pages take forms only: a JSON body (whose fields need not be strings) is a 415, not a 500.
    ui.removeAllContentTypeParsers();
    // A passkey's registration answer is a few kilobytes of JSON, urlencoded.
    ui.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 16_384 }, (_request, body, done) => {
      // Raw bytes that are not UTF-8 are refused too, not read as U+FFFD.
      const text = decodeUtf8Strictly(body as Buffer);
      const form = text === null ? null : parseFormStrictly(text);
      if (form) done(null, form);
      else done(Object.assign(new Error('The form is not valid percent-encoded UTF-8'), { statusCode: 400 }), undefined);
    });
    ui.addHook('onSend', async (request, reply, payload) => {
      reply.header('Content-Security-Policy', signInCsp(returnsTo.get(request), sites.get(request)?.brand.logo?.origin));
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
      strictTransportFor(request, reply, origin);
      return payload;
    });
    ui.setErrorHandler(async (error, request, reply) => {
      const { brand, home, startAgain } = sites.get(request) ?? options.fallback;
      // A request refused before any page logic (the input guard, a malformed form) keeps its 4xx.
      const status = (error as { statusCode?: unknown; status?: unknown }).statusCode ?? (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof InteractionGone)) {
        return reply
          .status(status)
          .type('text/html; charset=utf-8')
          .send(errorPage(textsOf(brand).badAddress(startAgain), home, brand));
      }
      const gone = error instanceof InteractionGone || (error as { name?: string }).name === 'SessionNotFound';
      if (!gone) request.log.error({ err: error }, 'sign-in interaction failed');
      const message = gone ? textsOf(brand).expired(startAgain) : textsOf(brand).serverError(startAgain);
      return reply
        .status(gone ? 400 : 500)
        .type('text/html; charset=utf-8')
        .send(errorPage(message, home, brand));
    });

    const page = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);

    /** The interaction this browser is in, matching the address (the provider's cookie is the CSRF guard). */
    async function interaction(site: SignInSite, request: UidRequest, reply: FastifyReply): Promise<Interaction> {
      const details = await site.provider.interactionDetails(request.raw, reply.raw);
      if (details.uid !== request.params.uid) throw new InteractionGone();
      const clientOrigin = originOf(details.params.redirect_uri);
      if (clientOrigin) returnsTo.set(request, clientOrigin);
      return details;
    }

    /** Resumes the authorization request with `result` (login, consent or an OAuth error). */
    async function finish(site: SignInSite, request: UidRequest, reply: FastifyReply, result: Parameters<Provider['interactionResult']>[2]) {
      const returnTo = await site.provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    }

    /** Consent is implied: signing in from the application is the person's consent to it. */
    async function grantFor(site: SignInSite, details: Interaction, accountId: string): Promise<string> {
      const grant = details.grantId ? await site.provider.Grant.find(details.grantId) : undefined;
      const target = grant ?? new site.provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const requested = String(details.params.scope ?? 'openid').split(' ');
      target.addOIDCScope(requested.filter((s) => site.scopes.includes(s)).join(' '));
      return target.save();
    }

    /** Signs `accountId` in; `deviceId`: the passkey that proved it, which the provider session then names (revocation ends it). */
    async function signInAs(site: SignInSite, request: UidRequest, reply: FastifyReply, details: Interaction, accountId: string, deviceId?: string) {
      const grantId = await grantFor(site, details, accountId);
      const login = deviceId === undefined ? { accountId } : { accountId, amr: [deviceAmr(deviceId)] };
      return finish(site, request, reply, { login, consent: { grantId } });
    }

    const stepContext = (details: Interaction, site: SignInSite, request: UidRequest, reply: FastifyReply): StepContext => ({
      uid: details.uid,
      links: linksFor(site, details.uid),
      request,
      reply,
      origin: requestOrigin(request, details.params.client_id),
    });

    /** Carries out what a step answered. */
    async function settle(
      site: SignInSite,
      request: UidRequest,
      reply: FastifyReply,
      details: Interaction,
      outcome: StepOutcome,
    ): Promise<FastifyReply> {
      if ('redirect' in outcome) return reply.redirect(outcome.redirect, 303);
      if ('page' in outcome) return page(reply, outcome.status, outcome.page);
      if ('json' in outcome) return reply.status(outcome.status).type('application/json; charset=utf-8').send(JSON.stringify(outcome.json));
      if ('verified' in outcome) return signInVerified(site, request, reply, details, outcome.verified);
      return signInAs(site, request, reply, details, outcome.accountId, outcome.deviceId);
    }

    /** An identity verified (emailed code, link, custom): the passkey offer for a user without one, else signed in. */
    async function signInVerified(site: SignInSite, request: UidRequest, reply: FastifyReply, details: Interaction, verified: VerifiedIdentity) {
      const { accountId, identity, method } = verified;
      const next = site.passkeys ? await site.passkeys.afterCode(stepContext(details, site, request, reply), accountId, identity, method) : null;
      if (next) return settle(site, request, reply, details, next);
      await site.events?.signedInWithCode(requestOrigin(request, details.params.client_id), identity, accountId, method);
      return signInAs(site, request, reply, details, accountId);
    }

    /** The interaction in its login prompt, unless the site refuses it (then the page is sent). */
    async function loginStep(site: SignInSite, request: UidRequest, reply: FastifyReply): Promise<Interaction | null> {
      const details = await interaction(site, request, reply);
      const refused = await site.refusal(details);
      if (refused !== null) {
        await site.events?.refused(requestOrigin(request, details.params.client_id));
        await page(reply, 403, refused);
        return null;
      }
      if (details.prompt.name !== 'login') throw new InteractionGone();
      return details;
    }

    // Page 1: the email address.
    /** A signed-in browser's interaction that only needs consent (and is not refused), or null. */
    async function consentStep(
      site: SignInSite,
      request: UidRequest,
      reply: FastifyReply,
    ): Promise<{ details: Interaction; accountId: string } | null> {
      const details = await interaction(site, request, reply);
      const accountId = details.session?.accountId;
      if (details.prompt.name !== 'consent' || !accountId || (await site.refusal(details)) !== null) return null;
      return { details, accountId };
    }

    ui.get(base, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      const consent = await consentStep(site, request, reply);
      if (consent) {
        // RFC 8252 §8.6: an app returning to a private-use scheme or a loopback address cannot be
        // told from another app claiming the same; a signed-in person confirms it is theirs.
        const redirectUri = consent.details.params.redirect_uri;
        if (typeof redirectUri === 'string' && returnsToUnverifiedApp(redirectUri)) {
          return page(reply, 200, continueToAppPage(linksFor(site, consent.details.uid), site.brand));
        }
        const grantId = await grantFor(site, consent.details, consent.accountId);
        return finish(site, request, reply, { consent: { grantId } });
      }
      const step = await loginStep(site, request, reply);
      if (!step) return reply;
      const email = (await site.loginCodes.pendingEmail(step.uid)) ?? '';
      return page(reply, 200, emailPage(linksFor(site, step.uid), { email }, site.brand));
    });

    // "Continue to the app" (RFC 8252 §8.6, above): the person confirms the app is theirs.
    ui.post(`${base}/continue`, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      const consent = await consentStep(site, request, reply);
      if (!consent) throw new InteractionGone();
      const grantId = await grantFor(site, consent.details, consent.accountId);
      return finish(site, request, reply, { consent: { grantId } });
    });

    ui.post(`${base}/email`, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      const details = await loginStep(site, request, reply);
      if (!details) return reply;
      const links = linksFor(site, details.uid);
      // docs/decisions/0018: the site's identity type (an address, or an alphanumeric user id).
      const typed = (request.body?.email ?? '').trim();
      const identity = site.verification ? site.verification.identityOf(typed) : emailIdentity(typed);
      if (!identity) {
        const error = site.verification?.invalidIdentity ?? textsOf(site.brand).invalidEmail;
        return page(reply, 400, emailPage(links, { email: typed.toLowerCase(), error }, site.brand));
      }
      const email = identity.value;
      // A user with a passkey is asked for it (docs/decisions/0013: the address comes first, so
      // only this project's credentials of this user are offered), unless they asked for a code.
      const wantsCode = request.body?.method === 'code' || request.body?.resend !== undefined;
      if (site.passkeys && !wantsCode) {
        const outcome = await site.passkeys.afterEmail(stepContext(details, site, request, reply), email, identity.type);
        if (outcome) return settle(site, request, reply, details, outcome);
      }
      if (site.verification) {
        const resend = request.body?.resend !== undefined;
        const outcome = await site.verification.start(stepContext(details, site, request, reply), identity, { resend });
        if (outcome) return settle(site, request, reply, details, outcome);
      }
      // Every well-formed address without a passkey gets a code: whether it may sign in is decided
      // later.
      const sent = await site.loginCodes.request(email, details.uid, request.ip);
      if (!sent.ok && sent.reason === 'mail_failed') {
        request.log.error({ err: sent.error }, 'could not send a sign-in code');
        await site.events?.mailFailed(requestOrigin(request, details.params.client_id), email);
        return page(reply, 503, emailPage(links, { email, error: textsOf(site.brand).mailFailed }, site.brand));
      }
      if (!sent.ok) {
        return page(reply, 429, emailPage(links, { email, error: tooManyCodes(site.brand, sent.limit, site.startAgain) }, site.brand));
      }
      return reply.redirect(`${links.codeAction}${request.body?.resend ? '?resent=1' : ''}`, 303);
    });

    /**
     * The code page's interaction: in the login prompt, with a code sent to an address during it;
     * 'no-code' when no code was sent yet (the browser goes back to page 1); null when refused.
     */
    async function codeStep(
      site: SignInSite,
      request: UidRequest,
      reply: FastifyReply,
    ): Promise<{ details: Interaction; links: InteractionLinks; email: string } | 'no-code' | null> {
      const details = await loginStep(site, request, reply);
      if (!details) return null;
      const email = await site.loginCodes.pendingEmail(details.uid);
      return email ? { details, links: linksFor(site, details.uid), email } : 'no-code';
    }

    // Page 2: the code.
    ui.get(`${base}/code`, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      const step = await codeStep(site, request, reply);
      if (step === null) return reply;
      if (step === 'no-code') return reply.redirect(linksFor(site, request.params.uid).emailPage, 303);
      const notice = request.query.resent ? textsOf(site.brand).newCodeSent : undefined;
      return page(reply, 200, codePage(step.links, { email: step.email, ...(notice ? { notice } : {}) }, site.brand));
    });

    ui.post(`${base}/code`, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      const step = await codeStep(site, request, reply);
      if (step === null) return reply;
      if (step === 'no-code') return reply.redirect(linksFor(site, request.params.uid).emailPage, 303);
      const { details, links, email } = step;
      const code = (request.body?.code ?? '').replace(/\s+/g, '');
      if (!/^\d{6}$/.test(code)) return page(reply, 400, codePage(links, { email, error: textsOf(site.brand).codeFormat }, site.brand));

      const result = await site.loginCodes.verify(details.uid, code, request.ip);
      if (!result.ok) {
        if (result.reason === 'none') return reply.redirect(links.emailPage, 303);
        await site.events?.codeRefused(requestOrigin(request, details.params.client_id), email, result.reason);
        const texts = textsOf(site.brand);
        const error = result.reason === 'wrong' && result.attemptsLeft === 0 ? texts.wrongCodeLast : texts.codeErrors[result.reason];
        return page(reply, 400, codePage(links, { email, error }, site.brand));
      }
      const accountId = await site.accountFor(result.email);
      return signInVerified(site, request, reply, details, { accountId, identity: result.email, method: 'email_code' });
    });

    // docs/decisions/0018: the pages of an Email Link or Custom verification under way.
    const verificationRoute = (path: string, step: 'waitPage' | 'status' | 'resume') =>
      ui.get(`${base}/${path}`, async (request: UidRequest, reply) => {
        const site = await siteOf(request);
        const details = await loginStep(site, request, reply);
        if (!details) return reply;
        if (!site.verification) throw new InteractionGone();
        return settle(site, request, reply, details, await site.verification[step](stepContext(details, site, request, reply)));
      });
    verificationRoute('verify', 'waitPage');
    verificationRoute('verify/status', 'status');
    verificationRoute('verified', 'resume');

    /**
     * The emailed link, opened in any browser: in the one holding the interaction it goes on there;
     * in another, the person confirms it (a POST) and goes back to the first window.
     */
    const openLink = async (request: UidRequest, reply: FastifyReply) => {
      const site = await siteOf(request);
      if (!site.verification) throw new InteractionGone();
      let details: Interaction | null = null;
      try {
        details = await interaction(site, request, reply);
      } catch (error) {
        if (!(error instanceof InteractionGone) && (error as { name?: string }).name !== 'SessionNotFound') throw error;
      }
      const sameBrowser = details !== null && details.prompt.name === 'login';
      const ctx: StepContext = details
        ? stepContext(details, site, request, reply)
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

    if (options.passkeys) {
      type Step = Exclude<keyof PasskeySteps, 'afterEmail' | 'afterCode' | 'quickCodes'>;
      const passkeyRoute = (method: 'get' | 'post', path: string, step: Step) =>
        ui[method](`${base}/${path}`, async (request: UidRequest, reply) => {
          const site = await siteOf(request);
          const details = await loginStep(site, request, reply);
          if (!details) return reply;
          if (!site.passkeys) throw new InteractionGone();
          const outcome = await site.passkeys[step](stepContext(details, site, request, reply), request.body ?? {});
          return settle(site, request, reply, details, outcome);
        });
      passkeyRoute('get', 'passkey', 'passkeyPage');
      passkeyRoute('post', 'passkey', 'passkeySubmit');
      passkeyRoute('get', 'register', 'registerPage');
      passkeyRoute('post', 'register', 'registerSubmit');
      passkeyRoute('get', 'quickcode', 'quickCodePage');
      passkeyRoute('post', 'quickcode', 'quickCodeSubmit');
      passkeyRoute('post', 'quickcode/continue', 'quickCodeContinue');
    }

    // "Cancel": the client receives the site's cancel error at its redirect URI.
    ui.get(`${base}/cancel`, async (request: UidRequest, reply) => {
      const site = await siteOf(request);
      await interaction(site, request, reply);
      return finish(site, request, reply, { error: site.cancelError, error_description: 'The sign-in was cancelled' });
    });
  });
}
