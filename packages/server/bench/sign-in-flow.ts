import * as client from 'openid-client';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from '../test/support/authenticator.ts';
import { Browser, type BrowserResponse } from '../test/support/browser.ts';

/**
 * One end user's passkey sign-in at a project's issuer, as the bench and the cluster test drive it:
 * a browser (test/support/browser.ts) and a software authenticator, the relying party openid-client.
 */

export const REDIRECT = 'https://app.example.com/callback';

/** Where the issuer's pages are (PUBLIC_URL, the passkeys' origin) and how an emailed code is read. */
export interface SignInTarget {
  baseUrl: string;
  lastCode(email: string): Promise<string>;
}

/** The action of the index-th form of a page, absolute. */
export function formAction(page: BrowserResponse, index = 0): string {
  const action = [...page.text.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => (m[1] as string).replaceAll('&amp;', '&'))[index];
  if (!action) throw new Error(`no form #${index} on ${page.url} (${page.status}):\n${page.text.slice(0, 500)}`);
  return new URL(action, page.url).href;
}

const toApp = (location: string) => location.startsWith(REDIRECT);
export async function settle(browser: Browser, first: BrowserResponse): Promise<BrowserResponse> {
  return (await browser.follow(first, toApp)).at(-1) as BrowserResponse;
}

export async function authorizationUrl(config: client.Configuration): Promise<{ url: URL; verifier: string }> {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  return { url, verifier };
}

export interface User {
  email: string;
  passkey: Passkey;
  sub: string;
}

/** A new user: emailed code, then "Create a passkey" (the software authenticator). */
export async function registerUser(server: SignInTarget, config: client.Configuration, email: string): Promise<User> {
  const browser = new Browser();
  const start = await authorizationUrl(config);
  const emailPage = await settle(browser, await browser.get(start.url.href));
  const codePage = await settle(browser, await browser.request(formAction(emailPage), { form: { email } }));
  const offer = await settle(browser, await browser.request(formAction(codePage), { form: { code: await server.lastCode(email) } }));
  const made = createPasskey(pageOptions<CreationOptions>(offer.text), server.baseUrl);
  const back = await settle(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(made.response) } }));
  if (!back.location?.startsWith(REDIRECT)) throw new Error(`registration did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: start.verifier });
  return { email, passkey: made.passkey, sub: tokens.claims()?.sub as string };
}

/** One whole sign-in of a returning user with their passkey; throws unless it ends with the user's tokens. */
export async function signIn(server: Pick<SignInTarget, 'baseUrl'>, config: client.Configuration, user: User): Promise<void> {
  const browser = new Browser();
  const start = await authorizationUrl(config);
  const emailPage = await settle(browser, await browser.get(start.url.href));
  const passkeyPage = await settle(browser, await browser.request(formAction(emailPage), { form: { email: user.email } }));
  const response = usePasskey(user.passkey, pageOptions<RequestOptions>(passkeyPage.text), server.baseUrl);
  const back = await settle(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(response) } }));
  if (!back.location?.startsWith(REDIRECT)) throw new Error(`the sign-in did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: start.verifier });
  if (tokens.claims()?.sub !== user.sub) throw new Error('the sign-in answered another sub');
}

/** Each virtual user signs in again and again, one sign-in at a time, until the time or the count is up. */
