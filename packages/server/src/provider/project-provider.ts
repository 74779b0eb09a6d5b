import type { JsonWebKey } from 'node:crypto';
import Provider, { type Adapter, type AdapterPayload, type ClientAuthMethod, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import { issuerClientRedirects, projectIssuerPath } from '@latchkey/domain';
import { issuerSite } from './custom-domains.ts';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { dbAdapterFactory, type CodeEvents } from '../idp/oidc-payloads.repository.ts';
import type { EventOrigin, ProjectEvents } from './events.ts';
import { mountedAt, PROVIDER_TTL } from '../idp/provider.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { findProjectUser } from './project-users.repository.ts';
import { projectErrorPage } from './project-pages.ts';

export const PROJECT_SCOPES = ['openid', 'email'] as const;

/** What a project's issuer needs from the applications module. */
/** What the provider needs to know about a client id (the applications' repository answers it). */
export interface Client {
  projectId: string;
  clientSecretHash: string;
  redirectUris: string[];
  applicationEnabled: boolean;
  projectEnabled: boolean;
}

export interface ProjectClients {
  findClient(clientId: string): Promise<Client | null>;
  verifyClientCredentials(clientId: string, clientSecret: string): Promise<boolean>;
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

export function projectIssuerUrl(publicUrl: string, projectId: string): string {
  return `${publicUrl}${projectIssuerPath(projectId)}`;
}

/** Can this client sign anyone in at this project's issuer right now? */
export function clientState(client: Client | null, projectId: string): 'unknown' | 'disabled' | 'closed' | 'ok' {
  if (!client || client.projectId !== projectId) return 'unknown';
  if (!client.projectEnabled) return 'closed';
  if (!client.applicationEnabled) return 'disabled';
  return 'ok';
}

/**
 * How the client in this request authenticates at the token endpoint: oidc-provider accepts a
 * secret in either place for a client registered with either secret method, so the project's
 * choice is enforced on what was actually presented.
 */
function presentedAuthMethod(ctx: KoaContextWithOIDC | undefined): ClientAuthMethod {
  if (ctx?.headers.authorization !== undefined) return 'client_secret_basic';
  return ctx?.oidc?.params?.client_secret ? 'client_secret_post' : 'none';
}

/** Where a provider request comes from (its ip is the client's: X-Forwarded-For is pinned to it, sign-in-pages.ts). */
function originOf(ctx: KoaContextWithOIDC | undefined, clientId: unknown): EventOrigin {
  const agent = ctx?.get('user-agent');
  return { ip: ctx?.ip ?? null, userAgent: agent ? agent : null, clientId: typeof clientId === 'string' ? clientId : null };
}

/**
 * A code issued to the application (scope `authcode`) and exchanged for tokens (the ID token it
 * yields counts as `jwt` usage), each in the transaction that stores or consumes the code; a code
 * presented twice is refused (and every token of its grant revoked) with a `failed` event.
 */
function codeEvents(db: Db, projectId: string, events: ProjectEvents): CodeEvents {
  const who = async (tx: Db, code: AdapterPayload) =>
    typeof code.accountId === 'string' ? ((await findProjectUser(tx, projectId, code.accountId))?.identity ?? null) : null;
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

/** Mounted at the root of a custom domain (mount path ''), the long-lived cookies belong to the whole origin. */
function rootedCookies<T extends ReturnType<typeof mountedAt>>(mounted: T): T {
  const long = mounted.cookies?.long;
  return long && !long.path ? { ...mounted, cookies: { ...mounted.cookies, long: { ...long, path: '/' } } } : mounted;
}

/**
 * One project's OpenID Connect issuer (oidc-provider), built from its state; a new one is built
 * when the project's version changes (provider-cache.ts). Clients are the project's applications,
 * looked up at each use; their secrets are verified against the stored hash (docs/decisions/0009,
 * 0012), never held by the provider. Artefacts live in project_oidc_payloads.
 */
export function createProjectProvider(options: {
  db: Db;
  secretBox: SecretBox;
  clients: ProjectClients;
  state: IssuerState;
  signingKeys: JsonWebKey[];
  cookieKeys: string[];
  publicUrl: string;
  events: ProjectEvents;
}): Provider {
  const { db, secretBox, clients, state, publicUrl, events } = options;
  const { projectId, issuer } = state;
  // docs/decisions/0016: with a custom domain, the issuer is that origin and lives at its root.
  const site = issuerSite(publicUrl, state);
  const { mountPath } = site;
  const secure = site.origin.startsWith('https:');
  const secretMethods: ClientAuthMethod[] = [...issuer.token_endpoint_auth_methods];
  const clientAuthMethods: ClientAuthMethod[] = issuer.allow_pkce_only_token_exchange ? [...secretMethods, 'none'] : secretMethods;
  // oidc-provider wants a client_secret for secret methods; it never compares it (compareClientSecret
  // below asks the applications module) and derives nothing from it (no HS* algorithm is enabled).
  const unusedSecret = randomToken();
  const payloads = dbAdapterFactory(db, secretBox, { table: 'project_oidc_payloads', projectId, events: codeEvents(db, projectId, events) });

  const clientAdapter: Pick<Adapter, 'find'> = {
    async find(clientId) {
      const client = await clients.findClient(clientId);
      if (clientState(client, projectId) !== 'ok' || !client) return undefined;
      // A secret is checked by compareClientSecret against the methods the project allows; without
      // one, the client is public only while the project allows PKCE-only exchange (else the
      // registered secret method does not match and the request is refused).
      const publicClient = presentedAuthMethod(Provider.ctx) === 'none' && clientAuthMethods.includes('none');
      // RFC 8252: an app returning to a private-use scheme or to loopback addresses only is a native
      // client (any port of a loopback URI); URIs the issuer cannot return to are left out (docs/decisions/0012).
      const { applicationType, redirectUris } = issuerClientRedirects(client.redirectUris);
      return {
        client_id: clientId,
        client_secret: unusedSecret,
        application_type: applicationType,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: publicClient ? 'none' : (secretMethods[0] ?? 'client_secret_basic'),
        id_token_signed_response_alg: issuer.id_token_signing_alg,
      };
    },
  };

  const configuration: Configuration = {
    adapter: (kind) => (kind === 'Client' ? (clientAdapter as Adapter) : payloads(kind)),
    clients: [],
    clientAuthMethods,
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: [...PROJECT_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    enabledJWA: { idTokenSigningAlgValues: [issuer.id_token_signing_alg] },
    async findAccount(_ctx, sub) {
      const user = await findProjectUser(db, projectId, sub);
      if (!user) return undefined;
      // docs/decisions/0018: the email claims only for a user known by an address (an alphanumeric id is no address).
      const email = user.email === null ? {} : { email: user.email, email_verified: true };
      return { accountId: user.id, claims: async () => ({ sub: user.id, ...email }) };
    },
    ...rootedCookies(mountedAt(mountPath, { cookieKeys: options.cookieKeys, cookiePrefix: 'lk_issuer', secure })),
    jwks: { keys: options.signingKeys } as Configuration['jwks'],
    // OpenID Connect Core §3.1.2.1: redirect_uri is required, even when the client has one.
    allowOmittingSingleRegisteredRedirectUri: false,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      // Pushed requests would carry a code_challenge past the issuer's PKCE policy (provider.routes.ts);
      // off until they are checked the same way.
      pushedAuthorizationRequests: { enabled: false },
      // End-session pages come with the devices slice (a session ends with its passkey's revocation).
      rpInitiatedLogout: { enabled: false },
    },
    ttl: PROVIDER_TTL,
    // spec §3 allowedCORSDomains: only these browser origins may call token, userinfo and the rest.
    clientBasedCORS: (_ctx, origin) => corsOriginAllowed(state.allowedOrigins, origin),
    async renderError(ctx, out) {
      // A request refused with a page (unknown client, a redirect URI not registered exactly, …).
      await events.refusal(originOf(ctx, ctx.oidc?.params?.client_id), {
        scope: 'oidc',
        status: 'failed',
        action: 'authorization_request',
        userId: null,
        details: { error: out.error, ...(out.error_description ? { description: out.error_description } : {}) },
      });
      const page = projectErrorPage(state, out, { acceptLanguage: ctx.get('accept-language'), publicUrl: site.origin });
      ctx.set('Content-Security-Policy', page.csp);
      ctx.type = 'html';
      ctx.body = page.html;
    },
  };
  const provider = new Provider(site.issuer, configuration);
  // Scheme and host come from X-Forwarded-*, pinned to PUBLIC_URL on every request (sign-in-pages.ts).
  provider.proxy = true;

  provider.Client.prototype.compareClientSecret = async function compareClientSecret(this: { clientId: string }, actual: string) {
    const method = presentedAuthMethod(Provider.ctx);
    const valid = secretMethods.includes(method) && (await clients.verifyClientCredentials(this.clientId, actual));
    if (!valid) {
      await events.refusal(originOf(Provider.ctx, this.clientId), {
        scope: 'authcode',
        status: 'failed',
        action: 'token',
        userId: null,
        details: { reason: 'invalid_client', method },
      });
    }
    return valid;
  };

  // oidc-provider 9 implements S256 only; a project allowing `plain` is served by the rewriting in
  // provider.routes.ts, so discovery states the project's own list.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/.well-known/openid-configuration' && ctx.body && typeof ctx.body === 'object') {
      (ctx.body as Record<string, unknown>).code_challenge_methods_supported = issuer.code_challenge_methods;
    }
  });
  return provider;
}
