import { expect } from 'vitest';
import type { Browser, BrowserResponse } from './browser.ts';
import type { TestApp } from './app.ts';

/** The `action` of the first form on an HTML page, absolute. */
export function formAction(page: BrowserResponse, index = 0): string {
  const actions = [...page.text.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => (m[1] as string).replaceAll('&amp;', '&'));
  const action = actions[index];
  if (!action) throw new Error(`no form #${index} on ${page.url}:\n${page.text}`);
  return new URL(action, page.url).href;
}

/** The `action` of the form holding `marker` (e.g. 'name="method" value="code"': "Email me a code instead"), absolute. */
export function formHolding(page: BrowserResponse, marker: string): string {
  const form = [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) => (m[2] as string).includes(marker));
  if (!form) throw new Error(`no form with ${marker} on ${page.url}:\n${page.text}`);
  return new URL((form[1] as string).replaceAll('&amp;', '&'), page.url).href;
}

/** Page 1's address form (on a passkey-first page 1 it follows the passkey form, docs/decisions/0048). */
export const emailAction = (page: BrowserResponse): string => formHolding(page, 'name="email"');

/** Page 1's discoverable passkey form (docs/decisions/0047, 0048), where the answer is posted. */
export const discoverAction = (page: BrowserResponse): string => formHolding(page, 'name="response"');

/** "Email me a code instead" on a passkey page. */
export const codeInsteadAction = (page: BrowserResponse): string => formHolding(page, 'name="method" value="code"');

export function linkHref(page: BrowserResponse, text: string): string {
  const m = new RegExp(`<a href="([^"]+)">${text}</a>`).exec(page.text);
  if (!m) throw new Error(`no link "${text}" on ${page.url}`);
  return new URL((m[1] as string).replaceAll('&amp;', '&'), page.url).href;
}

/** GET /api/authurl as the console does, then follows the browser to the provider's first page. */
export async function openSignIn(t: TestApp, browser: Browser, stateNext?: string): Promise<BrowserResponse> {
  const query = new URLSearchParams({ redirectURL: `${t.baseUrl}/login` });
  if (stateNext) query.set('state_next', stateNext);
  const res = await browser.get(`${t.baseUrl}/api/authurl?${query}`);
  expect(res.status, res.text).toBe(200);
  const { authUrl } = res.json<{ authUrl: string }>();
  const hops = await browser.follow(await browser.get(authUrl));
  return hops.at(-1) as BrowserResponse;
}

/** Types the email on page 1 and answers page 2 (the code page). */
export async function submitEmail(browser: Browser, emailPage: BrowserResponse, email: string): Promise<BrowserResponse> {
  // The form holding the field: a passkey-first page 1 leads with its passkey form (docs/decisions/0048).
  const posted = await browser.request(emailAction(emailPage), { form: { email } });
  const hops = await browser.follow(posted);
  return hops.at(-1) as BrowserResponse;
}

/**
 * Submits a code on page 2; answers the last response before the browser would reach /login. The
 * console's issuer offers an administrator without a passkey to create one (docs/decisions/0027):
 * "Not now" is pressed unless `offer` is 'keep' (then the offer page is answered).
 */
export async function submitCode(
  t: TestApp,
  browser: Browser,
  codePage: BrowserResponse,
  code: string,
  offer: 'decline' | 'keep' = 'decline',
): Promise<BrowserResponse> {
  const posted = await browser.request(formAction(codePage), { form: { code } });
  const toLogin = (url: string) => url.startsWith(`${t.baseUrl}/login`);
  let last = (await browser.follow(posted, toLogin)).at(-1) as BrowserResponse;
  if (offer === 'decline' && isPasskeyOffer(last))
    last = (await browser.follow(await declinePasskey(browser, last), toLogin)).at(-1) as BrowserResponse;
  return last;
}

/** The console's callback page: POST /api/login with code and state from /login?code=…&state=… */
export async function postLogin(t: TestApp, browser: Browser, callbackUrl: string): Promise<BrowserResponse> {
  const url = new URL(callbackUrl);
  return browser.request(`${t.baseUrl}/api/login`, {
    json: { code: url.searchParams.get('code'), redirectURL: `${t.baseUrl}/login`, state: url.searchParams.get('state') },
  });
}

/** The whole sign-in through the built-in provider; answers the POST /api/login response. */
export async function signInThroughProvider(t: TestApp, browser: Browser, email: string, stateNext?: string): Promise<BrowserResponse> {
  const emailPage = await openSignIn(t, browser, stateNext);
  const codePage = await submitEmail(browser, emailPage, email);
  const last = await submitCode(t, browser, codePage, t.mailer.lastCode(email));
  expect(last.location ?? '', last.text).toMatch(new RegExp(`^${t.baseUrl}/login\\?`));
  return postLogin(t, browser, last.location as string);
}

/** The passkey offer after the emailed code at a project's issuer (docs/decisions/0013). */
export const isPasskeyOffer = (page: BrowserResponse): boolean => page.status === 200 && page.text.includes('<h1>Create a passkey</h1>');

/** Presses "Not now" on the passkey offer; answers the redirect that follows. */
export async function declinePasskey(browser: Browser, offer: BrowserResponse): Promise<BrowserResponse> {
  return browser.request(formAction(offer, 1), { form: { skip: '1' } });
}
