import type Provider from 'oidc-provider';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { projectIssuerPath, signingKeyGraceSeconds, type Issuer } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { createLoginCodes } from '../oidc/login-codes.service.ts';
import { mountProviders, routedOrigin, SIGN_IN_CSP } from '../oidc/mount.ts';
import { registerSignInPages } from '../oidc/pages/sign-in-pages.ts';
import { requestOrigin, type SignInEvents, type SignInSite } from '../oidc/pages/site.ts';
import { errorPage, LATCHKEY_BRAND, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { pageLanguage } from '../oidc/pages/texts.ts';
import { countryLookup, type CountryLookup } from '../geoip.ts';
import { decodeUtf8Strictly } from '../http/input-guard.ts';
import type { Mailer } from '../mail/mailer.ts';
import { findIssuerState, type IssuerState } from './issuer-state.repository.ts';
import { issuerAt, providerMountPath } from './custom-domains.ts';
import { issuerCookieKeys, issuerSigningKeys } from '../oidc/keys.ts';
import { brandCsp, codeMail, projectBrand, refusalPage, startAgain, type PageRequest } from './project-pages.ts';
import { clientState, createProjectProvider, type ProjectClients } from './project-provider.ts';
import { createProviderCache } from './provider-cache.ts';
import { findProjectUser, userIdForEmail } from '../people/end-users.repository.ts';
import { blockedPage } from '../oidc/pages/passkey-views.ts';
import { projectPasskeys } from './project-passkeys.ts';
import { projectVerification, verificationSettingsOf, withIdentity } from './verification.ts';
import { registerVerificationRoutes } from './verification-routes.ts';
import { codeSignInEvent, type IssuerEvents } from '../events/end-user-event.ts';
import { projectEvents } from '../events/project-events.ts';
import { createClientCache } from './client-cache.ts';
import type { Metrics } from '../http/metrics.ts';
import { interactionRefOf } from '../oidc/payloads.repository.ts';
import { createBackchannelDelivery, queueBackchannelLogouts, type BackchannelDelivery } from '../people/backchannel-logouts.ts';
import { signLogoutToken } from '../oidc/issuer-provider.ts';
import type { OutgoingClient } from '../http/outgoing.ts';

export interface ProjectIssuerDeps {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  secretBox: SecretBox;
  clients: ProjectClients;
  publicUrl: string;
  /** Country of a client address; defaults to the offline database (geoip.ts). */
  countries?: CountryLookup;
  /** The guarded client the back-channel logout notices go out through (http/outgoing.ts). */
  outgoing: OutgoingClient;
  /** Where a failed delivery round is reported. */
  warn(error: unknown): void;
  /** The server's metrics (http/metrics.ts): events by result, the provider cache. */
  metrics?: Metrics;
  /** An event queued webhook messages: their sender is nudged (events.ts). */
  webhooksQueued?: () => void;
}

/** The events of the sign-in pages' own steps at a project's issuer (docs/decisions/0014). */
function signInEvents(events: IssuerEvents): SignInEvents {
  return {
    refused: async (origin) => {
      await events.refusal(origin, { scope: 'oidc', status: 'disabled', action: 'sign_in', userId: null });
    },
    // `method`: the emailed code, or the link or custom verification that stood for it (docs/decisions/0018).
    signedInWithCode: (origin, email, _accountId, method = 'email_code') =>
      events.recordNow(origin, { ...codeSignInEvent(email), details: { method } }),
    codeRefused: async (origin, email, reason) => {
      await events.refusal(origin, { scope: 'oidc', status: 'failed', action: 'sign_in', userId: email, details: { method: 'email_code', reason } });
    },
    mailFailed: async (origin, email) => {
      await events.refusal(origin, {
        scope: 'oidc',
        status: 'error',
        action: 'sign_in',
        userId: email,
        details: { method: 'email_code', reason: 'mail_failed' },
      });
    },
  };
}

const MOUNT_ROUTE = '/p/:project';

/**
 * spec §2 code_challenge_methods: oidc-provider 9 verifies S256 only. A `plain` challenge the
 * project allows is handed on as its S256 (S256(verifier) equals S256(challenge) exactly when the
 * verifier equals the challenge); a method the project does not allow is handed on as one
 * oidc-provider refuses, so the client gets invalid_request at its redirect URI.
 */
function applyChallengeMethods(search: URLSearchParams, issuer: Issuer): void {
  const challenge = search.get('code_challenge');
  if (challenge === null) return;
  const method = search.get('code_challenge_method') ?? 'plain';
  if (!(issuer.code_challenge_methods as readonly string[]).includes(method)) {
    search.set('code_challenge_method', `${method} (not allowed by this issuer)`);
  } else if (method === 'plain') {
    search.set('code_challenge', createHash('sha256').update(challenge, 'ascii').digest('base64url'));
    search.set('code_challenge_method', 'S256');
  }
}

/** An authorization request POSTed as a urlencoded form (at most 16 KiB, strict UTF-8), or null. */
async function readAuthorizationForm(raw: IncomingMessage): Promise<URLSearchParams | null> {
  if (!String(raw.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of raw) {
    size += (chunk as Buffer).length;
    if (size > 16_384) return null;
    chunks.push(chunk as Buffer);
  }
  const text = decodeUtf8Strictly(Buffer.concat(chunks));
  if (text === null) return null;
  try {
    return new URLSearchParams(text);
  } catch {
    return null;
  }
}

/** The interaction uid a provider resume request (…/auth/{uid}) names, or null. */
function resumedUidOf(url: string): string | null {
  const encoded = /\/auth\/([^/?#]+)/.exec(url)?.[1];
  if (encoded === undefined) return null;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return null;
  }
}

/**
 * Every project's OpenID Connect issuer at {PUBLIC_URL}/p/{project} (issue 8, slice 1), or at the
 * root of its custom domain, routed by Host (docs/decisions/0016), with its sign-in pages.
 */
/** What the issuer's neighbours (the account page, the management API) use of it. */
export interface ProjectIssuer {
  backchannel: BackchannelDelivery;
  providerFor(state: IssuerState): Promise<Provider>;
  eventsOf(projectId: string): IssuerEvents;
}

export async function registerProjectIssuerRoutes(app: FastifyInstance, deps: ProjectIssuerDeps): Promise<ProjectIssuer> {
  const { db, secretBox, clients, publicUrl } = deps;
  const countries = deps.countries ?? countryLookup();
  const { metrics } = deps;
  const eventsOf = (projectId: string) =>
    projectEvents({
      db,
      clock: deps.clock,
      secretBox,
      countries,
      projectId,
      ...(metrics ? { metrics } : {}),
      ...(deps.webhooksQueued ? { webhooksQueued: deps.webhooksQueued } : {}),
    });
  // Back-Channel Logout 1.0: notices queued at a logout or a revocation, signed and sent from here.
  const backchannel = createBackchannelDelivery({
    db,
    clock: deps.clock,
    outgoing: deps.outgoing,
    eventsOf,
    warn: deps.warn,
    async sign(projectId, clientId, claims) {
      const state = await findIssuerState(db, projectId);
      return state ? signLogoutToken(await cache.providerFor(state), clientId, claims) : null;
    },
  });
  // Clients as of the request's issuer state: one read per instance and change, not one per request.
  const clientCache = createClientCache((clientId) => clients.findClient(clientId));
  const cache = createProviderCache(
    async (state) =>
      createProjectProvider({
        db,
        secretBox,
        clients,
        clientOf: clientCache.of(state),
        state,
        publicUrl,
        events: eventsOf(state.projectId),
        async queueLogoutNotice(clientId, accountId, sid) {
          const sessions = [{ accountId, sids: { [clientId]: sid } }];
          try {
            if ((await queueBackchannelLogouts(db, state.projectId, sessions, 'logout', deps.clock.now())) > 0) backchannel.nudge();
          } catch (error) {
            // The person's logout stands (oidc-provider goes on); the operator learns the notice was not queued.
            deps.warn(error);
            throw error;
          }
        },
        signingKeys: await issuerSigningKeys(db, secretBox, state.projectId, state.issuer.id_token_signing_alg, signingKeyGraceSeconds(state.issuer)),
        cookieKeys: await issuerCookieKeys(db, secretBox),
      }),
    metrics ? { observe: { evicted: () => metrics.providerCacheEvictions.inc(), size: (entries) => metrics.providerCacheSize.set(entries) } } : {},
  );
  const refuse = (reply: FastifyReply, status: number, body: string, csp = SIGN_IN_CSP) =>
    reply.status(status).header('Content-Security-Policy', csp).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
  /** What a page answering `request` is rendered for (project-pages.ts: language, logo). */
  // The page's own origin (a custom domain's, docs/decisions/0016) decides which logo schemes it may show.
  const pageRequest = (request: FastifyRequest, uiLocales?: unknown): PageRequest => ({
    acceptLanguage: request.headers['accept-language'],
    ...(typeof uiLocales === 'string' ? { uiLocales } : {}),
    publicUrl: routedOrigin(request.raw)?.origin ?? publicUrl,
  });
  const noSuchIssuer = (request: FastifyRequest) => {
    const brand = { ...LATCHKEY_BRAND, language: pageLanguage(request.headers['accept-language'], 'en') };
    return errorPage(textsOf(brand).noSuchIssuer(startAgain(brand)), null, brand);
  };

  /** Why this client may not sign anyone in, or null. */
  async function refusalFor(state: IssuerState, clientId: unknown, brand: PageBrand): Promise<string | null> {
    if (!state.enabled) return refusalPage(brand, 'closed');
    const status = typeof clientId === 'string' ? clientState(await clientCache.of(state)(clientId), state.projectId) : 'unknown';
    return status === 'disabled' || status === 'closed' ? refusalPage(brand, status) : null;
  }

  await mountProviders(app, {
    route: `${MOUNT_ROUTE}/*`,
    publicUrl,
    async resolve(request, reply) {
      // The provider's resume (…/auth/{uid}) reads its interaction first: read ahead with the state.
      const resumed = resumedUidOf(request.raw.url ?? '');
      const state = await findIssuerState(db, request.params.project ?? '', resumed === null ? undefined : interactionRefOf(secretBox, resumed));
      const mountPath = state ? projectIssuerPath(state.projectId) : '';
      const url = new URL(request.raw.url ?? '/', publicUrl);
      if (!state || !url.pathname.startsWith(`${mountPath}/`)) {
        await refuse(reply, 404, noSuchIssuer(request));
        return null;
      }
      // docs/decisions/0016: one issuer per project; with a custom domain, it is there only.
      const at = issuerAt(request.raw, state, publicUrl);
      if (at === null) {
        await refuse(reply, 404, noSuchIssuer(request));
        return null;
      }
      if ('movedTo' in at) {
        await reply
          .status(307)
          .header('Location', at.movedTo)
          .header('Cache-Control', 'no-store')
          .type('text/plain; charset=utf-8')
          .send(`This sign-in service is at ${new URL(at.movedTo).origin}`);
        return null;
      }
      const brand = projectBrand(state, pageRequest(request));
      // The provider's router ignores case and one trailing slash: so does this check, or /AUTH would
      // pass the refusal and the PKCE policy by.
      if (url.pathname.slice(mountPath.length).toLowerCase().replace(/\/$/, '') === '/auth') {
        // OpenID Connect Core §3.1.2.1: the request may be POSTed as a form; it is read here and
        // handed on as the equivalent GET, so both go through the same checks.
        if (request.method === 'POST') {
          const form = await readAuthorizationForm(request.raw);
          if (!form) {
            await refuse(reply, 400, errorPage(textsOf(brand).invalidRequest(startAgain(brand)), null, brand), brandCsp(brand));
            return null;
          }
          for (const [name, value] of form) url.searchParams.set(name, value);
          request.raw.method = 'GET';
        }
        // spec §4: refused with a page before the provider sees the request.
        const refused = await refusalFor(state, url.searchParams.get('client_id'), brand);
        if (refused) {
          await eventsOf(state.projectId).refusal(requestOrigin(request, url.searchParams.get('client_id')), {
            scope: 'oidc',
            status: 'disabled',
            action: 'authorization_request',
            userId: null,
          });
          await refuse(reply, 403, refused, brandCsp(brand));
          return null;
        }
        applyChallengeMethods(url.searchParams, state.issuer);
        request.raw.url = `${mountPath}/auth${url.search}`;
      }
      return { provider: await cache.providerFor(state), mountPath: providerMountPath(request.raw, mountPath) };
    },
  });

  await registerSignInPages(app, {
    mountRoute: MOUNT_ROUTE,
    publicUrl,
    fallback: { brand: LATCHKEY_BRAND, home: null, startAgain: startAgain(LATCHKEY_BRAND) },
    async site(request, interactionOf): Promise<SignInSite> {
      // The page's interaction is read ahead with the state (one statement, not two).
      const uid = request.params.uid;
      const state = await findIssuerState(db, request.params.project ?? '', uid ? interactionRefOf(secretBox, uid) : undefined);
      if (!state) throw Object.assign(new Error('no such project'), { name: 'SessionNotFound' });
      const { projectId } = state;
      // docs/decisions/0016: the pages of a project with a custom domain exist on that domain only.
      const at = issuerAt(request.raw, state, publicUrl);
      if (at === null || 'movedTo' in at) throw Object.assign(new Error('not this address'), { name: 'SessionNotFound' });
      const { mountPath, origin } = at.site;
      // docs/decisions/0018: page 1 asks for the project's identity type; new users verify by its method.
      const verification = verificationSettingsOf(state);
      const provider = await cache.providerFor(state);
      // The authorization request's ui_locales chooses the pages' language before the browser's.
      const uiLocales = (await interactionOf(provider))?.params.ui_locales;
      const brand = withIdentity(projectBrand(state, pageRequest(request, uiLocales)), verification, state.identityTypeLabel !== '');
      const events = eventsOf(projectId);
      const loginCodes = createLoginCodes(deps, projectId, codeMail(brand));
      return {
        provider,
        loginCodes,
        mountPath,
        brand,
        home: null,
        startAgain: startAgain(brand),
        // spec §2: a user who presses Cancel returns to the client with error=consent_required.
        cancelError: 'consent_required',
        accountFor: (email) => userIdForEmail(db, { projectId, email, now: deps.clock.now() }),
        refusal: (details) => refusalFor(state, details.params.client_id, brand),
        async refuseAccount(ctx, accountId) {
          const user = await findProjectUser(db, projectId, accountId);
          if (!user?.blocked) return null;
          await events.refusal(ctx.origin, {
            scope: 'oidc',
            status: 'denied',
            action: 'sign_in',
            userId: user.identity,
            details: { reason: 'user_blocked' },
          });
          return blockedPage(ctx.links, brand);
        },
        passkeys: projectPasskeys({
          db,
          clock: deps.clock,
          secretBox,
          publicUrl: origin,
          projectId,
          mountPath,
          brand,
          events,
          quickCodes: state.quickCodes,
          login: state.login,
        }),
        events: signInEvents(events),
        verification: projectVerification({
          db,
          clock: deps.clock,
          secretBox,
          mailer: deps.mailer,
          loginCodes,
          events,
          projectId,
          settings: verification,
          site: at.site,
          brand,
          signingKeys: () => issuerSigningKeys(db, secretBox, projectId, state.issuer.id_token_signing_alg, signingKeyGraceSeconds(state.issuer)),
        }),
      };
    },
  });
  await registerVerificationRoutes(app, { db, clock: deps.clock, secretBox, clients, publicUrl, eventsOf });
  return { backchannel, providerFor: (state: IssuerState) => cache.providerFor(state), eventsOf };
}
