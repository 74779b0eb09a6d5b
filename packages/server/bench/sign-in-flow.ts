import { performance } from 'node:perf_hooks';
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

/** The action of the page's form holding `marker` (passkey-first page 1 has the passkey form before the address's), absolute. */
export function formWith(page: BrowserResponse, marker: string): string {
  const form = [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) => (m[2] as string).includes(marker));
  if (!form) throw new Error(`no form with ${marker} on ${page.url} (${page.status}):\n${page.text.slice(0, 500)}`);
  return new URL((form[1] as string).replaceAll('&amp;', '&'), page.url).href;
}
const ADDRESS_FIELD = 'name="email"';

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
  const codePage = await settle(browser, await browser.request(formWith(emailPage, ADDRESS_FIELD), { form: { email } }));
  const offer = await settle(browser, await browser.request(formAction(codePage), { form: { code: await server.lastCode(email) } }));
  // The passkey is made at the page's origin: PUBLIC_URL's on the shared path, the project's own host's otherwise.
  const made = createPasskey(pageOptions<CreationOptions>(offer.text), new URL(offer.url).origin);
  const back = await settle(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(made.response) } }));
  if (!back.location?.startsWith(REDIRECT)) throw new Error(`registration did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(back.location), { pkceCodeVerifier: start.verifier });
  return { email, passkey: made.passkey, sub: tokens.claims()?.sub as string };
}

/** One whole sign-in of a returning user with their passkey; throws unless it ends with the user's tokens. */
export async function signIn(server: Pick<SignInTarget, 'baseUrl'>, config: client.Configuration, user: User): Promise<void> {
  const browser = new Browser();
  const start = await authorizationUrl(config);
  const back = await identifierFirst(browser, start.url, user, server.baseUrl);
  const tokens = await client.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: start.verifier });
  if (tokens.claims()?.sub !== user.sub) throw new Error('the sign-in answered another sub');
}

/**
 * Today's identifier-first sign-in on a shared relying party (docs/decisions/0013): page 1, the
 * address, the passkey page asking for that user's passkeys, its answer; answers the callback URL
 * with the code. `origin`: where the passkey is used (PUBLIC_URL's).
 */
export async function identifierFirst(browser: Browser, authorization: URL, user: User, origin: string): Promise<string> {
  const emailPage = await settle(browser, await browser.get(authorization.href));
  const passkeyPage = await settle(browser, await browser.request(formWith(emailPage, ADDRESS_FIELD), { form: { email: user.email } }));
  const response = usePasskey(user.passkey, pageOptions<RequestOptions>(passkeyPage.text), origin);
  const back = await settle(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(response) } }));
  if (!back.location?.startsWith(REDIRECT)) throw new Error(`the sign-in did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  return back.location;
}

/**
 * The passkey-first sign-in where the project has a relying party of its own (docs/decisions/0047):
 * page 1's discoverable request answered at once (the autofill or the button), no address typed;
 * answers the callback URL with the code.
 */
export async function discoverable(browser: Browser, authorization: URL, user: User): Promise<string> {
  const page1 = await settle(browser, await browser.get(authorization.href));
  const response = usePasskey(user.passkey, pageOptions<RequestOptions>(page1.text), new URL(page1.url).origin);
  // The discoverable request's form (it holds the answer's field; the address's form does not).
  const back = await settle(browser, await browser.request(formWith(page1, 'name="response"'), { form: { response: JSON.stringify(response) } }));
  if (!back.location?.startsWith(REDIRECT)) throw new Error(`the sign-in did not return to the app: ${back.status} ${back.text.slice(0, 300)}`);
  return back.location;
}

/**
 * A Browser that counts its requests and adds up how long each took, from sending it to the
 * whole body read: the server's handling plus loopback and the client's own parsing.
 */
export class TimedBrowser extends Browser {
  requests = 0;
  ms = 0;

  override async request(...args: Parameters<Browser['request']>): ReturnType<Browser['request']> {
    const t0 = performance.now();
    try {
      return await super.request(...args);
    } finally {
      this.requests += 1;
      this.ms += performance.now() - t0;
    }
  }
}
