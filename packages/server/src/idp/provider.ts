import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IdpKeys } from './keys.ts';
import { dbAdapterFactory } from './oidc-payloads.repository.ts';
import { SIGN_IN_CSP } from './sign-in-pages.ts';
import { errorPage, LATCHKEY_BRAND, LOGOUT_SCRIPT_HASH, logoutPage, signedOutPage, textsOf } from './views.ts';

/** The console's client registration at the built-in provider. */
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

export const CONSOLE_CLIENT_ID = 'latchkey-console';
export const IDP_PATH = '/idp';
export const IDP_SCOPES = ['openid', 'email'] as const;

/** Lifetimes of every provider's artefacts, in seconds. */
export const PROVIDER_TTL = {
  AuthorizationCode: 60,
  AccessToken: 10 * 60,
  IdToken: 60 * 60,
  Interaction: 60 * 60,
  // As long as a console session can live at most (spec-free choice, README "Sessions").
  Session: 12 * 60 * 60,
  Grant: 12 * 60 * 60,
};

/**
 * Where a provider's interactions and cookies live: its mount path. Cookies are Secure exactly when
 * PUBLIC_URL is https (the request's scheme is pinned to it: sign-in-pages.ts); the long-lived ones
 * are scoped to the mount path, which keeps one project's cookies from another's on the same host.
 */
export function mountedAt(
  mountPath: string,
  options: { cookieKeys: string[]; cookiePrefix: string; secure: boolean },
): Pick<Configuration, 'interactions' | 'cookies'> {
  const { cookiePrefix: prefix, secure } = options;
  return {
    interactions: { url: (_ctx, interaction) => `${mountPath}/interaction/${interaction.uid}` },
    cookies: {
      keys: options.cookieKeys,
      names: { session: `${prefix}_session`, interaction: `${prefix}_interaction`, resume: `${prefix}_resume` },
      long: { httpOnly: true, sameSite: 'lax', path: mountPath, secure },
      short: { httpOnly: true, sameSite: 'lax', secure },
    },
  };
}

export function idpIssuer(publicUrl: string): string {
  return `${publicUrl}${IDP_PATH}`;
}

function html(ctx: KoaContextWithOIDC, body: string): void {
  ctx.type = 'html';
  ctx.body = body;
}

/**
 * The built-in OpenID provider (oidc-provider) for console sign-in: one static client (the
 * console), authorization code with PKCE S256 only, scopes openid and email. State lives in the
 * database (adapter), keys in server_keys; the interaction pages are ours (idp.routes.ts).
 */
export function createIdpProvider(options: { db: Db; secretBox: SecretBox; keys: IdpKeys; publicUrl: string }): Provider {
  const { db, secretBox, keys, publicUrl } = options;
  const secure = publicUrl.startsWith('https:');
  const home = `${publicUrl}/`;
  const configuration: Configuration = {
    adapter: dbAdapterFactory(db, secretBox),
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        client_secret: keys.consoleClientSecret,
        client_name: 'Latchkey console',
        redirect_uris: [`${publicUrl}/login`],
        post_logout_redirect_uris: [home],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    responseTypes: ['code'],
    pkce: { required: () => true },
    scopes: [...IDP_SCOPES],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The ID token itself carries email and email_verified: the console needs no userinfo call.
    conformIdTokenClaims: false,
    async findAccount(_ctx, sub) {
      // The account id at the provider is the verified, lower-cased email address.
      return { accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true }) };
    },
    ...mountedAt(IDP_PATH, { cookieKeys: keys.cookieKeys, cookiePrefix: 'lk_idp', secure }),
    jwks: keys.jwks as Configuration['jwks'],
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          // The page submits itself with an inline script allowed by its hash only.
          ctx.set('Content-Security-Policy', SIGN_IN_CSP.replace("script-src 'self'", `script-src 'self' ${LOGOUT_SCRIPT_HASH}`));
          html(ctx, logoutPage(form));
        },
        async postLogoutSuccessSource(ctx) {
          html(ctx, signedOutPage(home));
        },
      },
    },
    ttl: PROVIDER_TTL,
    clientBasedCORS: () => false,
    async renderError(ctx, out) {
      const reason = typeof out.error_description === 'string' ? out.error_description : String(out.error ?? 'Unknown error');
      const t = textsOf(LATCHKEY_BRAND);
      html(ctx, errorPage(t.providerAnswered(reason, t.startAgainAtConsole), home));
    },
  };
  const provider = new Provider(idpIssuer(publicUrl), configuration);
  // The provider reads scheme and host from X-Forwarded-Proto/-Host, which sign-in-pages.ts overwrites
  // on every request with PUBLIC_URL's: what a client sends never reaches it.
  provider.proxy = true;
  return provider;
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
 * sign-in asks for a code again, with no page to pass through. The browser just goes home.
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
