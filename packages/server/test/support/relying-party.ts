import * as client from 'openid-client';
import { projectIssuerPath, type ApplicationKeys } from '@latchkey/domain';
import type { SignedIn, TestApp } from './app.ts';
import type { Browser, BrowserResponse } from './browser.ts';
import { createApp, createKeys, createProject, REDIRECT } from './fixtures.ts';

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

/** An authorization request of the relying party: code + PKCE S256, back to REDIRECT. */
export async function authorizationRequest(p: RelyingParty): Promise<{ url: URL; verifier: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(p.config, {
    redirect_uri: REDIRECT,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, verifier };
}

/** Follows the browser's redirects until a page, or until the redirect back to the application. */
export async function untilApp(browser: Browser, first: BrowserResponse): Promise<BrowserResponse> {
  return (await browser.follow(first, (location) => location.startsWith(REDIRECT))).at(-1) as BrowserResponse;
}
