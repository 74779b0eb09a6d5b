/** spec §4: generating new keys is offered only while the application is enabled. */
export function canGenerateKeys(app: { enabled: boolean }, project: { enabled: boolean }): boolean {
  return app.enabled && project.enabled;
}

/** spec §4: save is disabled while the application is disabled (and, spec §5, while the project is closed). */
export function canSaveApplication(app: { enabled: boolean }, project: { enabled: boolean }): boolean {
  return app.enabled && project.enabled;
}

/**
 * spec §2 "Application settings": the redirect URL must match exactly — no prefix, no wildcard, no
 * normalisation of case, trailing slash or default port.
 */
export function redirectUriMatches(registered: readonly string[], asked: string): boolean {
  return registered.includes(asked);
}

/**
 * What one redirect URI tells about the application registering it (RFC 8252, OAuth 2.0 for Native
 * Apps, as oidc-provider 9 applies it; docs/decisions/0012 "Native apps"):
 * - `app-scheme`: a private-use scheme (`com.example.app:/cb`, §7.1), a native app's only;
 * - `loopback`: http to 127.0.0.1, [::1] or localhost (§7.3), a native app's or a web app's in development;
 * - `https`: https to a domain, a web app's or a native app's claimed URL (§7.2);
 * - `web`: http to any other host, or https to a loopback host, a web app's only.
 */
export type RedirectUriKind = 'app-scheme' | 'loopback' | 'https' | 'web';

/** Why a redirect URI cannot be registered (a validation message key), beyond being a URI at all. */
export type RedirectUriProblem =
  'validation.invalid_uri' | 'validation.redirect_uri_fragment' | 'validation.redirect_uri_native_web' | 'validation.redirect_uri_app_scheme';

/**
 * What an application is at its project's issuer (issue 22, chosen at creation as in Logto and
 * Auth0; docs/decisions/0028): a server-side web app (a confidential client, with its secret), a
 * single-page app in the browser or a native (mobile, desktop, command-line) app — both public
 * clients, which always use PKCE.
 */
export const APPLICATION_TYPES = ['web', 'spa', 'native'] as const;
export type ApplicationType = (typeof APPLICATION_TYPES)[number];

/** The hosts of a loopback redirect, as the URL parser writes them (and oidc-provider counts them). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
// Schemes a browser never leaves for an application: they run code, read local files or name nothing.
const NO_RETURN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:']);

/**
 * Does this redirect URI return to an app whose identity the issuer cannot verify — a private-use
 * scheme, or any address on a loopback host (RFC 8252 §7.1, §7.3, §8.6) — rather than a claimed
 * https origin? A signed-in person is asked before such an app gets a code (sign-in-pages.ts).
 */
export function returnsToUnverifiedApp(uri: string): boolean {
  const kind = redirectUriKind(uri);
  if (kind === 'app-scheme' || kind === 'loopback') return true;
  if (kind !== 'web') return false;
  return LOOPBACK_HOSTS.has(new URL(uri).hostname);
}

function redirectUriKind(uri: string): RedirectUriKind | RedirectUriProblem {
  // RFC 6749 §3.1.2: the endpoint URI MUST NOT include a fragment component.
  if (uri.includes('#')) return 'validation.redirect_uri_fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'validation.invalid_uri';
  }
  if (NO_RETURN_SCHEMES.has(url.protocol)) return 'validation.invalid_uri';
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol === 'http:') return loopback ? 'loopback' : 'web';
  if (url.protocol === 'https:') return loopback ? 'web' : 'https';
  return 'app-scheme';
}

/**
 * The problem of each redirect URI of one application's list, or null. A native app may return to a
 * private-use scheme, https on a domain or http on a loopback address (RFC 8252 §7; oidc-provider
 * refuses anything else for a native client); a web or single-page app to anything http(s) but a
 * private-use scheme. Without a type (the keys alone), a list holding a private-use scheme is read
 * as a native app's.
 */
export function redirectUriProblems(uris: readonly string[], type?: ApplicationType): Array<RedirectUriProblem | null> {
  const kinds = uris.map(redirectUriKind);
  const native = type === undefined ? kinds.includes('app-scheme') : type === 'native';
  return kinds.map((kind) => {
    if (kind === 'web' && native) return 'validation.redirect_uri_native_web';
    if (kind === 'app-scheme' && type !== undefined && !native) return 'validation.redirect_uri_app_scheme';
    return kind === 'app-scheme' || kind === 'loopback' || kind === 'https' || kind === 'web' ? null : kind;
  });
}

/**
 * The client an application of `type` is at its project's issuer: oidc-provider's `native` for a
 * native app (any port of a registered loopback URI is then accepted, RFC 8252 §7.3, and a signed-in
 * person confirms the app before it gets a code, §8.6), `web` otherwise (exact match, spec §2) —
 * a web app registering `http://localhost:3000/callback` for development stays a web app.
 * URIs that could not be registered today (stored before these rules) are left out, so the rest work.
 */
export function issuerClientRedirects(uris: readonly string[], type: ApplicationType): { applicationType: 'web' | 'native'; redirectUris: string[] } {
  const problems = redirectUriProblems(uris, type);
  return { applicationType: type === 'native' ? 'native' : 'web', redirectUris: uris.filter((_uri, index) => problems[index] === null) };
}

/** Why a back-channel logout URI cannot be registered (a validation message key). */
export type BackchannelLogoutUriProblem = 'validation.invalid_url' | 'validation.redirect_uri_fragment' | 'validation.backchannel_uri_https';

/**
 * Back-Channel Logout 1.0 §2.2: where the issuer posts a logout token — an absolute http(s) URL, no
 * fragment; https, but for a web app (a confidential client, which the specification lets use http
 * where the issuer allows it: an application on the operator's own network). '' is none.
 */
export function backchannelLogoutUriProblem(uri: string, type: ApplicationType): BackchannelLogoutUriProblem | null {
  if (uri === '') return null;
  if (uri.includes('#')) return 'validation.redirect_uri_fragment';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'validation.invalid_url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'validation.invalid_url';
  if (url.username !== '' || url.password !== '') return 'validation.invalid_url';
  return url.protocol === 'http:' && type !== 'web' ? 'validation.backchannel_uri_https' : null;
}
