import type { JsonWebKey } from 'node:crypto';
import Provider, { type AdapterPayload, type ClientAuthMethod, type KoaContextWithOIDC } from 'oidc-provider';
import { issuerClientRedirects, LANGUAGES, type ApplicationType } from '@latchkey/domain';
import { issuerSite } from './custom-domains.ts';
import { ACCOUNT_CLIENT_ID, accountClient } from './account-client.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { CodeEvents } from '../oidc/payloads.repository.ts';
import { APPLICATION_TYPE_METADATA, createIssuerProvider, type IssuerClients, type RefreshEvents } from '../oidc/issuer-provider.ts';
import type { EventOrigin, IssuerEvents } from '../events/end-user-event.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { findProjectUser, type ProjectUser } from '../people/end-users.repository.ts';
import { brandCsp, projectBrand, projectErrorPage, type PageRequest } from './project-pages.ts';
import { LOGOUT_SCRIPT_HASH, logoutConfirmPage, logoutPage, signedOutPage } from '../oidc/pages/views.ts';

/** What the provider needs to know about a client id (the applications' repository answers it). */
export interface Client {
  projectId: string;
  applicationType: ApplicationType;
  clientSecretHash: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  /** Back-Channel Logout 1.0: where a logout token is posted when a session of its user ends. */
  backchannelLogoutUri: string | null;
  applicationEnabled: boolean;
  projectEnabled: boolean;
}

export interface ProjectClients {
  findClient(clientId: string): Promise<Client | null>;
  /** `found`: the client as this request already read it through findClient, if it did. */
  verifyClientCredentials(clientId: string, clientSecret: string, found?: Client | null): Promise<boolean>;
}

/**
 * spec §3 allowedCORSDomains: is a browser's `Origin` one of the project's allowed origins? Each
 * entry is compared as the origin it names (scheme, host and port as a browser writes them: case
 * and default ports do not matter, nor does a path after it); an entry that names no web origin,
 * and the opaque origin `null`, allow nothing.
 */
export function corsOriginAllowed(allowed: readonly string[], origin: string): boolean {
  if (origin === 'null') return false;
  return allowed.some((entry) => {
    try {
      const named = new URL(entry);
      return (named.protocol === 'https:' || named.protocol === 'http:') && named.origin === origin;
    } catch {
      return false;
    }
  });
}

/** Can this client sign anyone in at this project's issuer right now? */
export function clientState(client: Client | null, projectId: string): 'unknown' | 'disabled' | 'closed' | 'ok' {
  if (!client || client.projectId !== projectId) return 'unknown';
  if (!client.projectEnabled) return 'closed';
  if (!client.applicationEnabled) return 'disabled';
  return 'ok';
}

/** What a provider page is rendered for: the browser's languages and the request's ui_locales. */
function pageRequestOf(ctx: KoaContextWithOIDC, publicUrl: string): PageRequest {
  const uiLocales = ctx.oidc?.params?.ui_locales;
  return { acceptLanguage: ctx.get('accept-language'), ...(typeof uiLocales === 'string' ? { uiLocales } : {}), publicUrl };
}

/** Where a provider request comes from (its ip is the client's: X-Forwarded-For is pinned to it, sign-in-pages.ts). */
function originOf(ctx: KoaContextWithOIDC | undefined, clientId: unknown): EventOrigin {
  const agent = ctx?.get('user-agent');
  return { ip: ctx?.ip ?? null, userAgent: agent ? agent : null, clientId: typeof clientId === 'string' ? clientId : null };
}

/** Reads a project's user through `db` (a transaction's, inside one). */
type UserReader = (db: Db, id: string) => Promise<ProjectUser | null>;

/**
 * One read of a person per provider request: the provider asks for the account, then the events
 * for its identity. A read already made (or under way) is shared; otherwise it goes through the
 * `db` given, so a read inside a transaction stays inside it (PGlite's one connection would wait
 * for the transaction otherwise).
 */
function perRequestUsers(projectId: string): UserReader {
  const read = new WeakMap<object, Map<string, Promise<ProjectUser | null>>>();
  return (db, id) => {
    const ctx = Provider.ctx;
    if (!ctx) return findProjectUser(db, projectId, id);
    let users = read.get(ctx);
    if (!users) read.set(ctx, (users = new Map()));
    const hit = users.get(id);
    if (hit) return hit;
    const found = findProjectUser(db, projectId, id);
    users.set(id, found);
    found.catch(() => users.delete(id));
    return found;
  };
}

/**
 * A code issued to the application (scope `authcode`) and exchanged for tokens (the ID token it
 * yields counts as `jwt` usage), each in the transaction that stores or consumes the code; a code
 * presented twice is refused (and every token of its grant revoked) with a `failed` event.
 */
function codeEvents(db: Db, userOf: UserReader, events: IssuerEvents): CodeEvents {
  const who = async (tx: Db, code: AdapterPayload) =>
    typeof code.accountId === 'string' ? ((await userOf(tx, code.accountId))?.identity ?? null) : null;
  return {
    async issued(tx, code) {
      const userId = await who(tx, code);
      await events.record(tx, originOf(Provider.ctx, code.clientId), { scope: 'authcode', status: 'success', action: 'code.issued', userId });
    },
    async exchanged(tx, code) {
      const userId = await who(tx, code);
      await events.record(tx, originOf(Provider.ctx, code.clientId), {
        scope: 'authcode',
        status: 'success',
        action: 'code.exchanged',
        userId,
        usage: 'jwt',
      });
    },
    async reused(code) {
      const userId = code ? await who(db, code) : null;
      await events.refusal(originOf(Provider.ctx, code?.clientId), {
        scope: 'authcode',
        status: 'failed',
        action: 'code.exchanged',
        userId,
        details: { reason: 'code_reused' },
      });
    },
  };
}

/**
 * Each refresh token grant is an event of scope `authcode` (the token endpoint's): answered, it counts
 * as an ID token issued (`jwt`) when it gave one, as the code exchange does; refused (a reused,
 * expired or revoked token), it is a `failed` refusal with the provider's reason.
 */
function refreshEvents(db: Db, userOf: UserReader, events: IssuerEvents): RefreshEvents {
  const who = async (accountId: string | null) => (accountId === null ? null : ((await userOf(db, accountId))?.identity ?? null));
  return {
    async refreshed(ctx, identity, idToken) {
      await events.recordNow(originOf(ctx, ctx.oidc.client?.clientId), {
        scope: 'authcode',
        status: 'success',
        action: 'token.refreshed',
        userId: identity,
        ...(idToken ? { usage: 'jwt' as const } : {}),
      });
    },
    async refused(ctx, accountId, reason) {
      await events.refusal(originOf(ctx, ctx.oidc.client?.clientId ?? ctx.oidc.params?.client_id), {
        scope: 'authcode',
        status: 'failed',
        action: 'token.refreshed',
        userId: await who(accountId),
        details: { reason },
      });
    },
  };
}

/**
 * One project's OpenID Connect issuer, built from its state on the kernel (oidc/issuer-provider.ts);
 * a new one is built when the project's version changes (provider-cache.ts). Clients are the
 * project's applications, looked up at each use; their secrets are verified against the stored hash
 * (docs/decisions/0009, 0012), never held by the provider.
 */
export function createProjectProvider(options: {
  db: Db;
  secretBox: SecretBox;
  clients: ProjectClients;
  /** The project's clients as of `state` (issuer/client-cache.ts): read once per instance, not at each request. */
  clientOf(clientId: string): Promise<Client | null>;
  state: IssuerState;
  signingKeys: JsonWebKey[];
  cookieKeys: string[];
  publicUrl: string;
  events: IssuerEvents;
  /** Back-Channel Logout 1.0: queues the notice of a session ended at a logout (people/backchannel-logouts.ts). */
  queueLogoutNotice(clientId: string, accountId: string, sid: string | null): Promise<void>;
}): Provider {
  const { db, secretBox, clients, state, publicUrl, events } = options;
  const { projectId, issuer } = state;
  // docs/decisions/0016: with a custom domain, the issuer is that origin and lives at its root.
  const site = issuerSite(publicUrl, state);
  const secretMethods: ClientAuthMethod[] = [...issuer.token_endpoint_auth_methods];
  const clientAuthMethods: ClientAuthMethod[] = issuer.allow_pkce_only_token_exchange ? [...secretMethods, 'none'] : secretMethods;

  const { clientOf } = options;
  const userOf = perRequestUsers(projectId);

  const applications: IssuerClients = {
    async find(clientId, presented) {
      // The end user's account page signs in as a client of every project's issuer (account-pages.ts).
      if (clientId === ACCOUNT_CLIENT_ID) return accountClient(site.issuer, secretMethods[0] ?? 'client_secret_basic', issuer.id_token_signing_alg);
      const client = await clientOf(clientId);
      if (clientState(client, projectId) !== 'ok' || !client) return undefined;
      // A secret is checked by verifySecret against the methods the project allows. Without one, a
      // single-page or native app is a public client while the project allows PKCE-only exchange; a
      // web app is confidential (else the registered secret method does not match and the request is
      // refused). docs/decisions/0028.
      const publicClient = presented === 'none' && client.applicationType !== 'web' && clientAuthMethods.includes('none');
      // RFC 8252: a native app returns to a private-use scheme, a claimed https URL or any port of a
      // loopback address; URIs the issuer cannot return to are left out (docs/decisions/0012).
      const { applicationType, redirectUris } = issuerClientRedirects(client.redirectUris, client.applicationType);
      const postLogout = issuerClientRedirects(client.postLogoutRedirectUris, client.applicationType).redirectUris;
      return {
        client_id: clientId,
        application_type: applicationType,
        [APPLICATION_TYPE_METADATA]: client.applicationType,
        redirect_uris: redirectUris,
        post_logout_redirect_uris: postLogout,
        // Its ID tokens carry `sid`, the session its logout tokens name (Back-Channel Logout 1.0 §2.2).
        ...(client.backchannelLogoutUri ? { backchannel_logout_uri: client.backchannelLogoutUri, backchannel_logout_session_required: true } : {}),
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: publicClient ? 'none' : (secretMethods[0] ?? 'client_secret_basic'),
        id_token_signed_response_alg: issuer.id_token_signing_alg,
      };
    },
    async verifySecret(clientId, secret, method) {
      // The account page's client has no secret: its code is never exchanged.
      const valid =
        clientId !== ACCOUNT_CLIENT_ID &&
        secretMethods.includes(method) &&
        (await clients.verifyClientCredentials(clientId, secret, await clientOf(clientId)));
      if (!valid) {
        await events.refusal(originOf(Provider.ctx, clientId), {
          scope: 'authcode',
          status: 'failed',
          action: 'token',
          userId: null,
          details: { reason: 'invalid_client', method },
        });
      }
      return valid;
    },
  };

  return createIssuerProvider(db, secretBox, {
    key: projectId,
    issuer: site.issuer,
    mountPath: site.mountPath,
    signingKeys: options.signingKeys,
    signingAlg: issuer.id_token_signing_alg,
    cookieKeys: options.cookieKeys,
    clients: applications,
    clientAuthMethods,
    codeChallengeMethods: issuer.code_challenge_methods,
    pkceForConfidentialClients: issuer.require_pkce_for_confidential_clients,
    uiLocales: LANGUAGES,
    async findAccount(sub) {
      const user = await userOf(db, sub);
      if (!user) return null;
      // The profile: the identity signed in with, and the project's pages' language (docs/decisions/0028).
      const profile = { sub: user.id, preferredUsername: user.identity, locale: state.language };
      // docs/decisions/0018: the email claims only for a user known by an address (an alphanumeric id is no address).
      return user.email === null ? profile : { ...profile, email: user.email };
    },
    claimsInIdToken: false,
    codeEvents: codeEvents(db, userOf, events),
    refreshEvents: refreshEvents(db, userOf, events),
    lifetimes: {
      accessToken: issuer.access_token_ttl,
      idToken: issuer.id_token_ttl,
      refreshIdle: issuer.refresh_token_idle_ttl,
      refreshAbsolute: issuer.refresh_token_absolute_ttl,
    },
    // spec §3 allowedCORSDomains: only these browser origins may call token, userinfo and the rest.
    corsAllowed: (origin) => corsOriginAllowed(state.allowedOrigins, origin),
    // RP-Initiated Logout 1.0, in the project's brand and language (the request's ui_locales first).
    logout: {
      async logoutSource(ctx, form) {
        const brand = projectBrand(state, pageRequestOf(ctx, site.origin));
        // A valid ID token of this person (id_token_hint) proves who asks: the page goes on by itself.
        // Anything else (none, or another person's) is confirmed by a click.
        const hint = ctx.oidc.entities.IdTokenHint as { payload?: { sub?: unknown } } | undefined;
        const proven = hint?.payload?.sub !== undefined && hint.payload.sub === ctx.oidc.session?.accountId;
        const csp = brandCsp(brand);
        ctx.set('Content-Security-Policy', proven ? csp.replace("script-src 'self'", `script-src 'self' ${LOGOUT_SCRIPT_HASH}`) : csp);
        ctx.type = 'html';
        ctx.body = proven ? logoutPage(form, brand) : logoutConfirmPage(form, brand);
      },
      backchannel: options.queueLogoutNotice,
      async signedOut(ctx, accountId, clientId) {
        const user = await userOf(db, accountId);
        await events.recordNow(originOf(ctx, clientId), { scope: 'oidc', status: 'success', action: 'sign_out', userId: user?.identity ?? null });
      },
      async postLogoutSuccessSource(ctx) {
        const brand = projectBrand(state, pageRequestOf(ctx, site.origin));
        ctx.set('Content-Security-Policy', brandCsp(brand));
        ctx.type = 'html';
        ctx.body = signedOutPage(null, brand);
      },
    },
    async renderError(ctx, out) {
      // A request refused with a page (unknown client, a redirect URI not registered exactly, …).
      await events.refusal(originOf(ctx, ctx.oidc?.params?.client_id), {
        scope: 'oidc',
        status: 'failed',
        action: 'authorization_request',
        userId: null,
        details: { error: out.error, ...(out.error_description ? { description: out.error_description } : {}) },
      });
      const page = projectErrorPage(state, out, pageRequestOf(ctx, site.origin));
      ctx.set('Content-Security-Policy', page.csp);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  });
}
