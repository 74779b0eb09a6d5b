import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { signingKeyGraceSeconds, TOKEN_LIFETIME_DEFAULTS } from '@latchkey/domain';
import { safeEqual, randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { createIssuerProvider } from '../oidc/issuer-provider.ts';
import { issuerCookieKeys, issuerSigningKeys } from '../oidc/keys.ts';
import { SIGN_IN_CSP } from '../oidc/mount.ts';
import { getOrCreateServerKey } from '../oidc/server-keys.repository.ts';
import { errorPage, LATCHKEY_BRAND, LOGOUT_SCRIPT_HASH, logoutPage, signedOutPage, textsOf } from '../oidc/pages/views.ts';

/**
 * The OpenID provider the console signs in through (DESIGN "Sign-in is OpenID Connect
 * (authorization code + PKCE) through openid-client"): the built-in one under /idp or an external
 * one from OIDC_ISSUER. Both are spoken to the same way.
 */
export interface SignInProvider {
  authorizationUrl(p: { redirectUri: string; state: string; nonce: string; codeChallenge: string }): Promise<string>;
  /** Exchanges the code; answers the provider-verified email (lower-cased) and the raw ID token. */
  exchange(p: { callbackUrl: URL; codeVerifier: string; state: string; nonce: string }): Promise<{ email: string; idToken: string | null }>;
  /** RP-initiated logout address, or null when the provider has none (or cannot be reached). */
  endSessionUrl(p: { idToken: string | null; postLogoutRedirectUri: string }): Promise<string | null>;
}

/**
 * The console's own issuer's key (docs/decisions/0027): a reserved issuer on the kernel every
 * project's issuer runs on, as Logto runs its admin tenant. No project id (16 characters of
 * base32) can be it.
 */
export const CONSOLE_ISSUER = 'console';
export const CONSOLE_CLIENT_ID = 'latchkey-console';
export const IDP_PATH = '/idp';

export function idpIssuer(publicUrl: string): string {
  return `${publicUrl}${IDP_PATH}`;
}

/** The console's client secret at its issuer: generated on first start, sealed in server_keys. */
function consoleClientSecret(db: Db, box: SecretBox): Promise<string> {
  return getOrCreateServerKey(db, box, 'idp.console_client_secret', () => randomToken());
}

/** The keys the console's issuer is built with (every instance reads the same ones). */
export async function loadConsoleIssuerKeys(db: Db, box: SecretBox) {
  return {
    signingKeys: await issuerSigningKeys(db, box, CONSOLE_ISSUER, 'RS256', signingKeyGraceSeconds(TOKEN_LIFETIME_DEFAULTS)),
    cookieKeys: await issuerCookieKeys(db, box),
    clientSecret: await consoleClientSecret(db, box),
  };
}

function html(ctx: KoaContextWithOIDC, body: string): void {
  ctx.type = 'html';
  ctx.body = body;
}

/**
 * The console's issuer: one client (the console, client_secret_basic, its /login the one redirect
 * URI), RS256, PKCE S256; accounts are verified, lower-cased email addresses (its `sub`), and the ID
 * token carries the address itself. It has RP-initiated logout; its pages read in English
 * (docs/decisions/0015).
 */
export function createConsoleProvider(options: {
  db: Db;
  secretBox: SecretBox;
  keys: Awaited<ReturnType<typeof loadConsoleIssuerKeys>>;
  publicUrl: string;
}): Provider {
  const { publicUrl, keys } = options;
  const home = `${publicUrl}/`;
  return createIssuerProvider(options.db, options.secretBox, {
    key: CONSOLE_ISSUER,
    // Its staff sign in while projects' issuers are flooded; its own window bounds what it stores.
    outsideServerWideLimits: true,
    issuer: idpIssuer(publicUrl),
    mountPath: IDP_PATH,
    signingKeys: keys.signingKeys,
    signingAlg: 'RS256',
    cookieKeys: keys.cookieKeys,
    clients: {
      async find(clientId) {
        if (clientId !== CONSOLE_CLIENT_ID) return undefined;
        return {
          client_id: CONSOLE_CLIENT_ID,
          client_name: 'Latchkey console',
          redirect_uris: [`${publicUrl}/login`],
          post_logout_redirect_uris: [home],
          grant_types: ['authorization_code'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_basic',
        };
      },
      async verifySecret(clientId, secret, method) {
        return clientId === CONSOLE_CLIENT_ID && method === 'client_secret_basic' && safeEqual(secret, keys.clientSecret);
      },
    },
    clientAuthMethods: ['client_secret_basic'],
    codeChallengeMethods: ['S256'],
    // The console always sends PKCE; its issuer requires it.
    pkceForConfidentialClients: true,
    // The console asks for no refresh token (its own session lives on the server, README "Sessions").
    lifetimes: {
      accessToken: TOKEN_LIFETIME_DEFAULTS.access_token_ttl,
      idToken: TOKEN_LIFETIME_DEFAULTS.id_token_ttl,
      refreshIdle: TOKEN_LIFETIME_DEFAULTS.refresh_token_idle_ttl,
      refreshAbsolute: TOKEN_LIFETIME_DEFAULTS.refresh_token_absolute_ttl,
    },
    // The console's pages speak English (docs/decisions/0015).
    uiLocales: ['en'],
    // The account id is the verified, lower-cased email address.
    // An administrator signs in with their address; the console's pages are English (docs/decisions/0015).
    findAccount: async (sub) => ({ sub, email: sub, preferredUsername: sub, locale: 'en' }),
    claimsInIdToken: true,
    // The console calls its issuer from the server only.
    corsAllowed: () => false,
    async renderError(ctx, out) {
      const reason = typeof out.error_description === 'string' ? out.error_description : String(out.error ?? 'Unknown error');
      const t = textsOf(LATCHKEY_BRAND);
      html(ctx, errorPage(t.providerAnswered(reason, t.startAgainAtConsole), home));
    },
    logout: {
      async logoutSource(ctx, form) {
        // The page submits itself with an inline script allowed by its hash only.
        ctx.set('Content-Security-Policy', SIGN_IN_CSP.replace("script-src 'self'", `script-src 'self' ${LOGOUT_SCRIPT_HASH}`));
        html(ctx, logoutPage(form));
      },
      async postLogoutSuccessSource(ctx) {
        html(ctx, signedOutPage(home));
      },
    },
  });
}

/** The account (`sub`) an ID token we stored names; the token was verified when it was received. */
function subjectOf(idToken: string): string | null {
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

/**
 * The built-in provider as the console signs in through it, with logout done on the server: the
 * console's logout ends the person's sessions at the provider too (their rows), so the next
 * sign-in asks again, with no page to pass through. The browser just goes home.
 */
export function builtInSignInProvider(signIn: SignInProvider, endSessions: (accountId: string) => Promise<void>): SignInProvider {
  return {
    ...signIn,
    async endSessionUrl({ idToken }) {
      const accountId = idToken ? subjectOf(idToken) : null;
      if (accountId) await endSessions(accountId);
      return null;
    },
  };
}
