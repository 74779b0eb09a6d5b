import * as client from 'openid-client';
import { DomainError, isEmail } from '@latchkey/domain';
import type { SignInProvider } from '../../idp/console-issuer.ts';

export interface SignInProviderOptions {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Replaces fetch for every call to the provider (the built-in provider is reached in-process). */
  fetch?: client.CustomFetch;
}

export const SIGN_IN_SCOPE = 'openid email';

function loginFailed(reason: string): DomainError {
  return new DomainError('login_failed', reason);
}

/** A short, human reason for a failed exchange; never a stack or a token. */
function reasonOf(error: unknown): string {
  if (error instanceof DomainError) return error.message;
  if (error instanceof client.ResponseBodyError || error instanceof client.AuthorizationResponseError) {
    return error.error_description ? `${error.error}: ${error.error_description}` : error.error;
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return 'The identity provider could not be reached';
  if (error instanceof Error && error.message) return error.message.slice(0, 200);
  return 'The sign-in could not be completed';
}

export function openIdSignInProvider(options: SignInProviderOptions): SignInProvider {
  const insecure = options.issuer.startsWith('http:');
  let configuration: Promise<client.Configuration> | null = null;

  async function discover(): Promise<client.Configuration> {
    const discoveryOptions: client.DiscoveryRequestOptions = insecure ? { execute: [client.allowInsecureRequests] } : {};
    if (options.fetch) discoveryOptions[client.customFetch] = options.fetch;
    const discovered = await client.discovery(new URL(options.issuer), options.clientId, options.clientSecret, undefined, discoveryOptions);
    // client_secret_basic is OpenID Connect's default method; use post only when basic is not offered.
    const methods = discovered.serverMetadata().token_endpoint_auth_methods_supported;
    const auth =
      methods && !methods.includes('client_secret_basic') && methods.includes('client_secret_post')
        ? client.ClientSecretPost(options.clientSecret)
        : client.ClientSecretBasic(options.clientSecret);
    const config = new client.Configuration(discovered.serverMetadata(), options.clientId, options.clientSecret, auth);
    if (options.fetch) config[client.customFetch] = options.fetch;
    if (insecure) client.allowInsecureRequests(config);
    return config;
  }

  /** Discovered once and kept; a failed discovery is retried on the next call. */
  function config(): Promise<client.Configuration> {
    if (!configuration) {
      configuration = discover().catch((error: unknown) => {
        configuration = null;
        throw error;
      });
    }
    return configuration;
  }

  return {
    async authorizationUrl({ redirectUri, state, nonce, codeChallenge }) {
      let cfg: client.Configuration;
      try {
        cfg = await config();
      } catch (cause) {
        throw Object.assign(new DomainError('internal', 'The identity provider could not be reached; try again shortly'), { cause });
      }
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: SIGN_IN_SCOPE,
        code_challenge: codeChallenge,
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return url.href;
    },

    async exchange({ callbackUrl, codeVerifier, state, nonce }) {
      try {
        const cfg = await config();
        const metadata = cfg.serverMetadata();
        // The console posts back code and state only; with a single configured issuer there is no
        // mix-up to detect, so the expected `iss` is supplied when the provider sends one (RFC 9207).
        if (metadata.authorization_response_iss_parameter_supported && !callbackUrl.searchParams.has('iss')) {
          callbackUrl.searchParams.set('iss', metadata.issuer);
        }
        const tokens = await client.authorizationCodeGrant(cfg, callbackUrl, {
          pkceCodeVerifier: codeVerifier,
          expectedState: state,
          expectedNonce: nonce,
          idTokenExpected: true,
        });
        const claims = tokens.claims();
        if (!claims) throw loginFailed('The identity provider returned no ID token');
        let email: unknown = claims.email;
        let verified: unknown = claims.email_verified;
        if (typeof email !== 'string' || verified === undefined) {
          const info = await client.fetchUserInfo(cfg, tokens.access_token, claims.sub);
          email = info.email;
          verified = info.email_verified;
        }
        if (typeof email !== 'string' || !isEmail(email)) throw loginFailed('The identity provider did not share an email address');
        // An unverified address could belong to anyone: never let it reach an existing account.
        if (verified !== true && verified !== 'true') throw loginFailed('The email address is not verified by the identity provider');
        return { email: email.toLowerCase(), idToken: tokens.id_token ?? null };
      } catch (error) {
        throw loginFailed(reasonOf(error));
      }
    },

    async endSessionUrl({ idToken, postLogoutRedirectUri }) {
      let cfg: client.Configuration;
      try {
        cfg = await config();
      } catch {
        return null;
      }
      if (!cfg.serverMetadata().end_session_endpoint) return null;
      const params: Record<string, string> = { post_logout_redirect_uri: postLogoutRedirectUri, client_id: options.clientId };
      if (idToken) params.id_token_hint = idToken;
      return client.buildEndSessionUrl(cfg, params).href;
    },
  };
}
