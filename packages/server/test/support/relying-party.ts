import * as client from 'openid-client';
import { projectIssuerPath, type ApplicationKeys } from '@latchkey/domain';
import type { SignedIn, TestApp } from './app.ts';
import type { Browser, BrowserResponse } from './browser.ts';
import { expect } from 'vitest';
import { createApp, createKeys, createProject, REDIRECT } from './fixtures.ts';
import { declinePasskey, formAction, isPasskeyOffer, submitEmail } from './sign-in.ts';

/** A project with one application, and openid-client configured for it by discovery (its secret, the library's default method). */
export interface RelyingParty {
  projectId: string;
  appId: string;
  keys: ApplicationKeys;
  config: client.Configuration;
}

export async function projectWithRelyingParty(t: TestApp, admin: SignedIn): Promise<RelyingParty> {
  const projectId = await createProject(admin);
  const appId = await createApp(admin, projectId);
  const keys = await createKeys(admin, appId);
  const config = await client.discovery(new URL(`${t.baseUrl}${projectIssuerPath(projectId)}`), keys.clientId, keys.clientSecret, undefined, {
    execute: [client.allowInsecureRequests],
  });
  return { projectId, appId, keys, config };
}

/** An authorization request of the relying party: code + PKCE S256, back to REDIRECT (`extra`: more parameters, or other scopes). */
export async function authorizationRequest(
  p: Pick<RelyingParty, 'config'>,
  extra: Record<string, string> = {},
): Promise<{ url: URL; verifier: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(p.config, {
    redirect_uri: REDIRECT,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    ...extra,
  });
  return { url, verifier };
}

/** The same request with a refresh token asked for: offline_access, which needs prompt=consent (OpenID Connect Core §11). */
export const OFFLINE = { scope: 'openid email offline_access', prompt: 'consent' } as const;

/**
 * A new end user signs in at the relying party with an emailed code in `browser` (declining the
 * passkey offer) and the app exchanges the code: answers the token response.
 */
export async function signInForTokens(t: TestApp, browser: Browser, p: RelyingParty, email: string, extra: Record<string, string> = {}) {
  const request = await authorizationRequest(p, extra);
  const page1 = await untilApp(browser, await browser.get(request.url.href));
  const codePage = await submitEmail(browser, page1, email);
  let last = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
  if (isPasskeyOffer(last)) last = await untilApp(browser, await declinePasskey(browser, last));
  expect(last.location ?? '', last.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
  return client.authorizationCodeGrant(p.config, new URL(last.location as string), { pkceCodeVerifier: request.verifier });
}

/** The OAuth error a refused request answered (in the body, or in WWW-Authenticate). */
export async function refusal(request: Promise<unknown>): Promise<string> {
  try {
    await request;
  } catch (error) {
    const e = error as { error?: string; cause?: Array<{ parameters?: { error?: string } }> };
    return e.error ?? e.cause?.[0]?.parameters?.error ?? String(error);
  }
  throw new Error('the request was not refused');
}

/** Follows the browser's redirects until a page, or until the redirect back to the application. */
export async function untilApp(browser: Browser, first: BrowserResponse): Promise<BrowserResponse> {
  return (await browser.follow(first, (location) => location.startsWith(REDIRECT))).at(-1) as BrowserResponse;
}

/** A logout page's form (RP-Initiated Logout): where it posts, with the xsrf value oidc-provider checks. */
export function logoutForm(page: BrowserResponse): { action: string; xsrf: string } {
  const action = /<form id="op\.logoutForm" method="post" action="([^"]+)"/.exec(page.text)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.text)?.[1];
  if (!action || !xsrf) throw new Error(`no logout form on ${page.url}:\n${page.text}`);
  return { action: new URL(action.replaceAll('&amp;', '&'), page.url).href, xsrf };
}
