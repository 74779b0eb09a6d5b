import { randomInt, type JsonWebKey } from 'node:crypto';
import { returnsToUnverifiedApp } from '@latchkey/domain';
import Provider, {
  interactionPolicy,
  type Adapter,
  type ClientAuthMethod,
  type ClientMetadata,
  type Configuration,
  type ErrorOut,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { formTargetOf } from './mount.ts';
import { dbAdapterFactory, type CodeEvents, type RefreshGrantEvents } from './payloads.repository.ts';
import { hitAll, type RateLimit } from '../db/rate-limits.repository.ts';
import { rateLimitKeyOf } from '../http/client-address.ts';
import { compressedFor } from '../http/compression.ts';

/** Lifetimes of every issuer's artefacts that no setting changes, in seconds. */
const FIXED_TTL = {
  AuthorizationCode: 60,
  Interaction: 60 * 60,
  // As long as a console session can live at most (spec-free choice, README "Sessions").
  Session: 12 * 60 * 60,
};

/** An issuer's token lifetimes in seconds (a project's OpenID Connect settings, issue 22). */
export interface TokenLifetimes {
  accessToken: number;
  idToken: number;
  /** A refresh token unused this long ends (each rotation starts it again)… */
  refreshIdle: number;
  /** …and every refresh token of a sign-in ends this long after it, rotated or not. */
  refreshAbsolute: number;
}

/**
 * The lifetimes oidc-provider is given: a refresh token lives its idle time, cut to what remains of
 * the absolute time since the sign-in that began the chain (`iiat` survives rotation); a grant lives
 * as long as its longest refresh token can, or a session.
 */
function providerTtl(lifetimes: TokenLifetimes): NonNullable<Configuration['ttl']> {
  return {
    ...FIXED_TTL,
    AccessToken: lifetimes.accessToken,
    IdToken: lifetimes.idToken,
    RefreshToken(_ctx, token) {
      const remaining = (token.iiat ?? token.iat ?? Math.floor(Date.now() / 1000)) + lifetimes.refreshAbsolute - Math.floor(Date.now() / 1000);
      return Math.max(1, Math.min(lifetimes.refreshIdle, remaining));
    },
    // A grant with offline_access lives as long as its refresh tokens can; any other, a session.
    Grant(_ctx, grant) {
      const offline = grant.getOIDCScope().split(' ').includes('offline_access');
      return offline ? Math.max(lifetimes.refreshAbsolute, FIXED_TTL.Session) : FIXED_TTL.Session;
    },
  };
}

/**
 * Unauthenticated requests store little and boundedly (issue 22): an authorization request that
 * needs the sign-in pages stores one interaction (a few kB, an hour). One client address (IPv6: its
 * /64) starts at most `perAddress` of them at one issuer per window, and an issuer at most
 * `perIssuer` from everyone together. Anyone who signs up can make issuers (projects), so the
 * projects' issuers together take at most `serverWide` (issue 35), one address at most
 * `perAddressServerWide` of those, lest one caller with many projects use up what every issuer
 * shares. The query of an authorization request is at most MAX_AUTHORIZATION_QUERY characters.
 * docs/decisions/0028 gives the figures.
 */
export const INTERACTION_LIMITS = {
  perAddress: 120,
  perIssuer: 20_000,
  perAddressServerWide: 1_200,
  serverWide: 100_000,
  windowMs: 10 * 60 * 1000,
} as const;
export const MAX_AUTHORIZATION_QUERY = 4096;

/**
 * The rate-limit key every issuer's interaction windows are kept under (no project id is 6
 * characters, nor 'console'): a server-wide window must be counted in the statement that counts the
 * issuer's own, and hitAll counts under one key (docs/decisions/0028).
 */
export const INTERACTION_WINDOWS_KEY = 'server';

/**
 * The server-wide window is this many rows, `serverWide / SERVER_WIDE_STRIPES` each, a new
 * interaction counting in one at random: one row taking every sign-in of the server would queue
 * them on its lock (measured on PostgreSQL 15, 8 concurrent callers: one row halved the statements a
 * second and doubled their p95; 16 rows, within noise of the per-issuer windows alone). Together
 * they never admit more than `serverWide`; a flood fills them all.
 */
export const SERVER_WIDE_STRIPES = 16;

export type InteractionLimit = 'address' | 'issuer' | 'server-address' | 'server';

/** The windows a new interaction at `issuer` from `ip` counts in; `stripe`: its row of the server-wide window. */
export function interactionLimitsOf(
  box: SecretBox,
  issuer: string,
  ip: string,
  options: { serverWide: boolean; stripe: number },
): RateLimit<InteractionLimit>[] {
  const bucket = (...parts: string[]) => box.hmac('rate-limit', ['interactions', ...parts].join('\n'));
  const { perAddress, perIssuer, perAddressServerWide, serverWide, windowMs } = INTERACTION_LIMITS;
  const address = rateLimitKeyOf(ip);
  const limits: RateLimit<InteractionLimit>[] = [
    { name: 'address', bucket: bucket(issuer, 'address', address), max: perAddress, windowMs },
    { name: 'issuer', bucket: bucket(issuer, 'issuer'), max: perIssuer, windowMs },
  ];
  if (!options.serverWide) return limits;
  // '*' is no issuer's key: the server-wide buckets are no issuer's.
  return [
    ...limits,
    { name: 'server-address', bucket: bucket('*', 'address', address), max: perAddressServerWide, windowMs },
    { name: 'server', bucket: bucket('*', 'stripe', String(options.stripe)), max: Math.floor(serverWide / SERVER_WIDE_STRIPES), windowMs },
  ];
}

/** Counts a new interaction in every window it belongs to, in one statement; false: one is used up. */
async function admitInteraction(db: Db, box: SecretBox, issuer: string, ip: string, serverWide: boolean): Promise<boolean> {
  const limits = interactionLimitsOf(box, issuer, ip, { serverWide, stripe: randomInt(SERVER_WIDE_STRIPES) });
  return (await hitAll(db, INTERACTION_WINDOWS_KEY, limits, new Date())) === null;
}

/** The scopes every issuer offers, and the claims they give (`offline_access`: a refresh token). */
export const ISSUER_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/**
 * How the client in this request authenticates at the token endpoint: oidc-provider accepts a
 * secret in either place for a client registered with either secret method, so the issuer's
 * choice is enforced on what was actually presented.
 */
function presentedAuthMethod(ctx: KoaContextWithOIDC | undefined): ClientAuthMethod {
  if (ctx?.headers.authorization !== undefined) return 'client_secret_basic';
  return ctx?.oidc?.params?.client_secret ? 'client_secret_post' : 'none';
}

/**
 * What a client is (issue 22): a confidential `web` app, or a public `spa` or `native` one — the
 * kernel reads it from the client's registration under this name (`web` when absent).
 */
export const APPLICATION_TYPE_METADATA = 'latchkey_application_type';

/**
 * PKCE (RFC 7636) is required of a public client (a single-page or native app, or any client that
 * does not authenticate at the token endpoint) always, and of a confidential web app when the issuer
 * says so; a challenge sent is verified in every case.
 */
export function pkceRequiredOf(client: { clientAuthMethod: string; [key: string]: unknown }, confidentialToo: boolean): boolean {
  const type = client[APPLICATION_TYPE_METADATA] ?? 'web';
  return confidentialToo || type !== 'web' || client.clientAuthMethod === 'none';
}

/** An issuer's clients, looked up at each use; their secrets are checked by the issuer's owner, never held by the provider. */
export interface IssuerClients {
  /** The client's registration as this request may use it (`presented`: how it authenticates), or undefined: unknown here. */
  find(clientId: string, presented: ClientAuthMethod): Promise<Omit<ClientMetadata, 'client_secret'> | undefined>;
  /** Is `secret`, presented by `method`, the client's? */
  verifySecret(clientId: string, secret: string, method: ClientAuthMethod): Promise<boolean>;
}

/**
 * The account a `sub` names at an issuer: its claims (an email only for a user known by an address).
 * `profile` gives what the issuer knows of a person (docs/decisions/0028): the identity they sign
 * in with as `preferred_username`, and `locale`; no name is collected, so none is claimed.
 */
export interface IssuerAccount {
  sub: string;
  email?: string;
  preferredUsername: string;
  locale: string;
}

/**
 * A refresh token grant answered, written with the access token it stores (RefreshGrantEvents: the
 * issuers' access tokens are opaque, each one a stored row), or refused for `reason`.
 */
export interface RefreshEvents extends RefreshGrantEvents {
  refused(ctx: KoaContextWithOIDC, accountId: string | null, reason: string): Promise<void>;
}

/**
 * One issuer as the kernel builds it: the console's own (the reserved issuer, idp/console-issuer.ts)
 * and every project's (issuer/project-provider.ts) are each one of these, and nothing else differs
 * between them in how oidc-provider is configured.
 */
export interface IssuerDefinition {
  /** The issuer's key: its rows of oidc_payloads and its keys' names (a project's id, or CONSOLE_ISSUER). */
  key: string;
  /**
   * Its new interactions count in no server-wide window (INTERACTION_LIMITS), only in its own: the
   * console's issuer, so that its staff still sign in while projects' issuers are flooded.
   */
  outsideServerWideLimits?: boolean;
  /** The issuer identifier (an https URL, or http on a loopback PUBLIC_URL). */
  issuer: string;
  /** Where it is mounted on its origin (`/idp`, `/p/{project}`, '' at a custom domain's root). */
  mountPath: string;
  signingKeys: JsonWebKey[];
  /** The ID token's signing algorithm: the first signing key is of it. */
  signingAlg: string;
  cookieKeys: string[];
  clients: IssuerClients;
  /** Token endpoint authentication methods offered ('none': PKCE-only exchange allowed). */
  clientAuthMethods: ClientAuthMethod[];
  /** The languages its pages speak (discovery's ui_locales_supported; a request's ui_locales picks one). */
  uiLocales: readonly string[];
  /** code_challenge_methods_supported as discovery states it (provider.routes.ts serves `plain`). */
  codeChallengeMethods: readonly string[];
  /** Must a confidential web app use PKCE too (a public client always must)? */
  pkceForConfidentialClients: boolean;
  findAccount(sub: string): Promise<IssuerAccount | null>;
  /** The ID token carries the email claims itself (the console reads them there, with no userinfo call). */
  claimsInIdToken: boolean;
  /** What authorization codes are as events (a project's issuer, docs/decisions/0014). */
  codeEvents?: CodeEvents;
  /** What refresh token grants are as events (a project's issuer). */
  refreshEvents?: RefreshEvents;
  lifetimes: TokenLifetimes;
  /** May a browser at `origin` call the token, userinfo and other endpoints? */
  corsAllowed(origin: string): boolean;
  /** A request refused with a page (unknown client, a redirect URI not registered exactly, …). */
  renderError(ctx: KoaContextWithOIDC, out: ErrorOut): Promise<void>;
  /** RP-initiated logout's pages, or none (then the issuer has no end_session_endpoint). */
  logout?: {
    logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void>;
    postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void>;
    /** A person signed out at the issuer (their provider session ended), asked by `clientId` if it said. */
    signedOut?(ctx: KoaContextWithOIDC, accountId: string, clientId: string | null): Promise<void>;
    /**
     * Back-Channel Logout 1.0: the session `sid` of `accountId` at `clientId` (a client registered
     * with a back-channel logout URI) ended at a logout; the notice is queued, sent by the issuer's
     * owner (people/backchannel-logouts.ts). None: the issuer offers no back-channel logout.
     */
    backchannel?(clientId: string, accountId: string, sid: string | null): Promise<void>;
  };
}

/**
 * oidc-provider's prompts, and one check more at consent: a public client that is not a native app
 * (a single-page app exchanging without a secret) returning to a loopback address is confirmed by
 * the signed-in person, as a native app is (RFC 8252 §8.6): another local process could listen at a
 * development URI left registered, and nothing but PKCE would tell it from the app (the page:
 * identity-step.ts).
 */
function interactionPolicyOf(): interactionPolicy.Prompt[] {
  const policy = interactionPolicy.base();
  policy.get('consent')?.checks.add(
    new interactionPolicy.Check(
      'public_client_loopback_prompt',
      'public clients returning to a loopback address require End-User interaction',
      'interaction_required',
      (ctx) => {
        const { oidc } = ctx;
        const redirectUri = oidc.params?.redirect_uri;
        const unverified =
          oidc.client?.clientAuthMethod === 'none' &&
          oidc.client.applicationType !== 'native' &&
          typeof redirectUri === 'string' &&
          returnsToUnverifiedApp(redirectUri);
        return unverified && oidc.params?.response_type !== 'none' && !oidc.result?.consent
          ? interactionPolicy.Check.REQUEST_PROMPT
          : interactionPolicy.Check.NO_NEED_TO_PROMPT;
      },
    ),
  );
  return policy;
}

/** The issuer's session cookie (oidc-provider's `session`), scoped to its mount path. */
export const ISSUER_SESSION_COOKIE = 'lk_issuer_session';

/**
 * Where an issuer's interactions and cookies live: its mount path. Cookies are Secure exactly when
 * the issuer is https (the request's scheme is pinned to it: mount.ts); the long-lived ones are
 * scoped to the mount path (the whole origin at a custom domain's root), which keeps one issuer's
 * cookies from another's on the same host.
 */
function mountedAt(definition: IssuerDefinition): Pick<Configuration, 'interactions' | 'cookies'> {
  const { mountPath } = definition;
  const secure = definition.issuer.startsWith('https:');
  return {
    interactions: { policy: interactionPolicyOf(), url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    cookies: {
      keys: definition.cookieKeys,
      names: { session: ISSUER_SESSION_COOKIE, interaction: 'lk_issuer_interaction', resume: 'lk_issuer_resume' },
      long: { httpOnly: true, sameSite: 'lax', path: mountPath || '/', secure },
      short: { httpOnly: true, sameSite: 'lax', secure },
    },
  };
}

/**
 * Builds an issuer's oidc-provider: authorization code with PKCE, refresh tokens (rotated at every
 * use, RFC 9700 §4.14.2: a rotated one presented again revokes its whole grant), revocation (RFC
 * 7009) and introspection (RFC 7662), scopes openid, email and offline_access, its
 * artefacts in oidc_payloads under its key (payloads.repository.ts), its clients looked up and
 * their secrets verified by its owner, its pages ours (pages/).
 */
export function createIssuerProvider(db: Db, secretBox: SecretBox, definition: IssuerDefinition): Provider {
  const { clients } = definition;
  const payloads = dbAdapterFactory(db, secretBox, {
    issuer: definition.key,
    ...(definition.codeEvents ? { events: definition.codeEvents } : {}),
    ...(definition.refreshEvents ? { refreshGrants: definition.refreshEvents } : {}),
    admitInteraction: () => admitInteraction(db, secretBox, definition.key, Provider.ctx?.ip ?? 'unknown', !definition.outsideServerWideLimits),
  });
  // oidc-provider wants a client_secret for secret methods; it never compares it (compareClientSecret
  // below asks the clients' owner) and derives nothing from it (no HS* algorithm is enabled).
  const unusedSecret = randomToken();
  const clientAdapter: Pick<Adapter, 'find'> = {
    async find(clientId) {
      const client = await clients.find(clientId, presentedAuthMethod(Provider.ctx));
      return client ? { ...client, client_secret: unusedSecret } : undefined;
    },
  };
  const configuration: Configuration = {
    adapter: (kind) => (kind === 'Client' ? (clientAdapter as Adapter) : payloads(kind)),
    clients: [],
    clientAuthMethods: definition.clientAuthMethods,
    responseTypes: ['code'],
    pkce: {
      required: (_ctx, client) => pkceRequiredOf(client as unknown as Parameters<typeof pkceRequiredOf>[0], definition.pkceForConfidentialClients),
    },
    extraClientMetadata: { properties: [APPLICATION_TYPE_METADATA] },
    scopes: [...ISSUER_SCOPES],
    claims: { openid: ['sub'], profile: ['preferred_username', 'locale'], email: ['email', 'email_verified'] },
    conformIdTokenClaims: !definition.claimsInIdToken,
    // OpenID Connect Discovery §3, Core §15.1: RS256 is always supported (its key always published,
    // keys.ts); the issuer's own algorithm signs its clients' ID tokens.
    enabledJWA: {
      idTokenSigningAlgValues: [...new Set([definition.signingAlg, 'RS256'])] as NonNullable<Configuration['enabledJWA']>['idTokenSigningAlgValues'],
    },
    async findAccount(_ctx, sub) {
      const account = await definition.findAccount(sub);
      if (!account) return undefined;
      const email = account.email === undefined ? {} : { email: account.email, email_verified: true };
      const profile = { preferred_username: account.preferredUsername, locale: account.locale };
      return { accountId: account.sub, claims: async () => ({ sub: account.sub, ...profile, ...email }) };
    },
    ...mountedAt(definition),
    jwks: { keys: definition.signingKeys } as Configuration['jwks'],
    // OpenID Connect Core §3.1.2.1: redirect_uri is required, even when the client has one.
    allowOmittingSingleRegisteredRedirectUri: false,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // Pushed requests would carry a code_challenge past the issuer's PKCE policy (provider.routes.ts);
      // off until they are checked the same way.
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: definition.logout
        ? { enabled: true, logoutSource: definition.logout.logoutSource, postLogoutSuccessSource: definition.logout.postLogoutSuccessSource }
        : { enabled: false },
      // Back-Channel Logout 1.0: a client's backchannel_logout_uri; its ID tokens carry `sid`.
      backchannelLogout: { enabled: definition.logout?.backchannel !== undefined },
      // RFC 7009: a client revokes its own tokens; a refresh or access token takes its grant with it.
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      // RFC 7662: a web app (a confidential client, a resource server of the project) asks about any
      // token of the issuer whose client still signs in; a single-page or native app never (its secret,
      // if it has one, ships with it), and a token of a disabled application is inactive.
      introspection: {
        enabled: true,
        allowedPolicy: async (ctx, client, token) =>
          client.clientAuthMethod !== 'none' &&
          ((client as unknown as Record<string, unknown>)[APPLICATION_TYPE_METADATA] ?? 'web') === 'web' &&
          typeof token.clientId === 'string' &&
          (await ctx.oidc.provider.Client.find(token.clientId)) !== undefined,
      },
    },
    ttl: providerTtl(definition.lifetimes),
    // A refresh token for offline_access (oidc-provider keeps that scope only with prompt=consent,
    // OpenID Connect Core §11), and for every sign-in of a native app (RFC 8252: an app keeps its user
    // signed in by refreshing); without offline_access it ends with the session (expiresWithSession).
    async issueRefreshToken(_ctx, client, code) {
      return client.grantTypeAllowed('refresh_token') && (code.scopes.has('offline_access') || client.applicationType === 'native');
    },
    rotateRefreshToken: true,
    discovery: { ui_locales_supported: [...definition.uiLocales] },
    clientBasedCORS: (_ctx, origin) => definition.corsAllowed(origin),
    renderError: (ctx, out) => definition.renderError(ctx, out),
  };
  const provider = new Provider(definition.issuer, configuration);
  // Scheme and host come from X-Forwarded-*, pinned to the issuer's origin on every request (mount.ts):
  // what a client sends never reaches it.
  provider.proxy = true;

  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientId: string }, actual: string) {
    return clients.verifySecret(this.clientId, actual, presentedAuthMethod(Provider.ctx));
  };

  provider.use(compressPages);
  // oidc-provider 9 implements S256 only; an issuer allowing `plain` is served by the rewriting in
  // provider.routes.ts, so discovery states the issuer's own list.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).code_challenge_methods_supported = definition.codeChallengeMethods;
    }
  });
  provider.use(boundedAuthorizationRequests(definition));
  provider.use(refuseForeignPreflights(definition));
  const backchannel = definition.logout?.backchannel;
  if (backchannel) {
    // At a logout, oidc-provider would POST each logout token itself, once, while the browser waits;
    // the notice is queued instead and delivered (and retried) by the issuer's owner.
    provider.Client.prototype.backchannelLogout = async function queueLogoutNotice(this: { clientId: string }, sub: string, sid?: string) {
      await backchannel(this.clientId, sub, sid ?? null);
    };
  }
  const signedOut = definition.logout?.signedOut;
  if (signedOut) provider.use(signOutEventsOf(signedOut));
  if (definition.refreshEvents) {
    // The refused grant's reason as oidc-provider knows it (its answer says only "grant request is invalid").
    const reasons = new WeakMap<KoaContextWithOIDC, string>();
    provider.on('grant.error', (ctx: KoaContextWithOIDC, error: { error_detail?: unknown; message?: unknown }) => {
      const reason = error.error_detail ?? error.message;
      if (typeof reason === 'string') reasons.set(ctx, reason);
    });
    provider.use(refreshEventsOf(definition.refreshEvents, reasons));
  }
  provider.use(formPostToTheClient);
  return provider;
}

/** Back-Channel Logout 1.0 §2.4: the logout token's one event. */
const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/**
 * The logout token (Back-Channel Logout 1.0 §2.4) telling `clientId` that the session `sid` of
 * `sub` ended, signed now by the issuer's key for that client's ID tokens (`typ` logout+jwt, two
 * minutes' life, a new `jti` at every attempt: RFC 7519 §4.1.7), with the client's back-channel logout URI;
 * null when the client cannot be told any more (disabled, removed, no URI now).
 */
export async function signLogoutToken(
  provider: Provider,
  clientId: string,
  claims: { sub: string; sid: string | null },
): Promise<{ uri: string; token: string } | null> {
  const client = await provider.Client.find(clientId);
  const uri = client?.backchannelLogoutUri;
  if (!client || typeof uri !== 'string') return null;
  const IdToken = provider.IdToken as unknown as new (
    claims: { sub: string },
    options: { client: unknown; ctx: undefined },
  ) => { mask: unknown; set(key: string, value: unknown): void; issue(options: { use: 'logout' }): Promise<string> };
  const token = new IdToken({ sub: claims.sub }, { client, ctx: undefined });
  token.mask = { sub: null };
  token.set('events', { [BACKCHANNEL_LOGOUT_EVENT]: {} });
  token.set('jti', randomToken(16));
  if (claims.sid !== null) token.set('sid', claims.sid);
  return { uri, token: await token.issue({ use: 'logout' }) };
}

/**
 * Each refresh token grant refused is an event once answered: its account (the token's, when it was
 * found) and why. An answered one was written with its access token; a client that failed to
 * authenticate is reported by verifySecret already.
 */
function refreshEventsOf(events: RefreshEvents, reasons: WeakMap<KoaContextWithOIDC, string>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (ctx.oidc?.route !== 'token' || ctx.oidc.params?.grant_type !== 'refresh_token' || ctx.status === 200) return;
    const { entities } = ctx.oidc;
    const accountId = entities.Account?.accountId ?? entities.RefreshToken?.accountId ?? null;
    const body = (ctx.body ?? {}) as { error?: unknown; error_description?: unknown };
    if (body.error === 'invalid_client') return;
    const reason = reasons.get(ctx) ?? (typeof body.error_description === 'string' ? body.error_description : String(body.error ?? 'error'));
    return events.refused(ctx, accountId, reason);
  };
}

/**
 * An authorization request's parameters are stored with its interaction: one whose query (or posted
 * form) is longer than MAX_AUTHORIZATION_QUERY is refused with the issuer's error page, before
 * anything is read or stored. Every parameter a client needs fits many times over.
 */
function boundedAuthorizationRequests(definition: IssuerDefinition) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    // oidc-provider's router takes the path in any case and with a trailing slash.
    if (ctx.path.toLowerCase().replace(/\/$/, '') !== '/auth') return next();
    // A POST without its length (chunked) cannot be measured before it is read: refused too.
    const length = ctx.method === 'POST' ? Number(ctx.get('content-length') || Number.POSITIVE_INFINITY) : ctx.querystring.length;
    if (length <= MAX_AUTHORIZATION_QUERY) return next();
    ctx.status = 400;
    await definition.renderError(ctx, { error: 'invalid_request', error_description: 'the authorization request is too large' });
  };
}

/** A logout confirmed (the session ended, the browser sent on): the event, once answered. */
function signOutEventsOf(signedOut: NonNullable<NonNullable<IssuerDefinition['logout']>['signedOut']>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    if (ctx.oidc?.route !== 'end_session_confirm' || ctx.status !== 303) return;
    const accountId = ctx.oidc.session?.accountId;
    if (typeof accountId === 'string') await signedOut(ctx, accountId, ctx.oidc.client?.clientId ?? null);
  };
}

/** Endpoints whose CORS answer is the same for every origin (public metadata); the others are a client's. */
const OPEN_CORS_ROUTES = new Set(['cors.discovery', 'cors.jwks', 'cors.openid_credential_issuer']);
const PREFLIGHT_HEADERS = ['Access-Control-Allow-Origin', 'Access-Control-Allow-Methods', 'Access-Control-Allow-Headers', 'Access-Control-Max-Age'];

/**
 * oidc-provider answers a preflight (OPTIONS) of the token, userinfo and other client endpoints for
 * any origin, since it cannot know the client yet; only the actual response checks the client's
 * origins. A preflight from an origin the issuer does not allow (a project's Allowed CORS Origins;
 * none for the console's issuer) is answered without its CORS headers, so the browser stops there.
 */
function refuseForeignPreflights(definition: IssuerDefinition) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>) => {
    await next();
    const origin = ctx.get('Origin');
    const route = ctx.oidc?.route;
    if (ctx.method !== 'OPTIONS' || !origin || !route?.startsWith('cors.') || OPEN_CORS_ROUTES.has(route)) return;
    if (!definition.corsAllowed(origin)) for (const header of PREFLIGHT_HEADERS) ctx.remove(header);
  };
}

/**
 * Where a page of the provider sends the browser on to, beyond the issuer itself: the client's
 * redirect URI (response_mode=form_post: a form posts the code there, submitted by an inline script
 * whose hash oidc-provider adds to script-src), or, at RP-initiated logout, the post-logout redirect
 * URI the confirmation redirects to. Both are already matched exactly against the client's.
 */
function onwardTargetOf(ctx: KoaContextWithOIDC): string | null {
  const params = ctx.oidc?.params;
  if (params?.response_mode === 'form_post') return formTargetOf(params.redirect_uri) ?? null;
  if (ctx.oidc?.route === 'end_session') return formTargetOf(params?.post_logout_redirect_uri) ?? null;
  return null;
}

/**
 * The pages' CSP allows forms to post only to the issuer itself (mount.ts), which Chromium enforces
 * on the provider's own forms too, and on the redirect that follows a form's submission: the onward
 * target's origin (onwardTargetOf) is added to the page's form-action.
 */
/**
 * Issue 38: the provider's own pages (the logout confirmation, a form_post back to the client) are
 * written past Fastify's hooks (mount.ts hijacks the reply), so they are compressed here, the way
 * http/compression.ts compresses the server's other pages. Registered first: the other middleware
 * has finished with the page when this one runs.
 */
async function compressPages(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  if (!ctx.response.is('html') || typeof ctx.body !== 'string' || ctx.response.get('Content-Encoding')) return;
  ctx.vary('Accept-Encoding');
  const compressed = await compressedFor(ctx.get('Accept-Encoding') || undefined, Buffer.from(ctx.body));
  if (!compressed) return;
  ctx.set('Content-Encoding', compressed.encoding);
  ctx.body = compressed.body;
}

async function formPostToTheClient(ctx: KoaContextWithOIDC, next: () => Promise<void>) {
  await next();
  if (!ctx.response.is('html')) return;
  const target = onwardTargetOf(ctx);
  const csp = ctx.response.get('Content-Security-Policy');
  if (!target || typeof csp !== 'string' || !csp) return;
  const directives = csp
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean)
    .map((directive) => (directive.startsWith('form-action ') ? `${directive} ${target}` : directive));
  ctx.set('Content-Security-Policy', directives.join('; '));
}
