import * as client from 'openid-client';
import { expect } from 'vitest';
import { uniqueEmail, type TestApp } from './app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './authenticator.ts';
import type { Browser, BrowserResponse } from './browser.ts';
import { REDIRECT } from './fixtures.ts';
import { authorizationRequest, untilApp, type RelyingParty } from './relying-party.ts';
import { codeInsteadAction, declinePasskey, formAction, isPasskeyOffer, submitEmail } from './sign-in.ts';

/**
 * An end user's whole sign-ins at a project's issuer, as their browser does them, with a standard
 * relying party (openid-client) taking the tokens: a new user with a passkey, a passkey sign-in, an
 * emailed-code sign-in. Each answers what the application got.
 */
export function endUserSignIns(app: TestApp) {
  /** Opens an authorization request in `browser`: the redirect back to the app (signed in) or the page it stops at. */
  async function open(browser: Browser, p: RelyingParty, extra: Record<string, string> = {}) {
    const request = await authorizationRequest(p, extra);
    return { request, end: await untilApp(browser, await browser.get(request.url.href)) };
  }

  const signedInStraightAway = (end: BrowserResponse) => (end.location ?? '').startsWith(`${REDIRECT}?`);

  async function tokensFrom(p: RelyingParty, callback: BrowserResponse, verifier: string) {
    expect(callback.location ?? '', callback.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return client.authorizationCodeGrant(p.config, new URL(callback.location as string), { pkceCodeVerifier: verifier });
  }

  /** A new user: address, emailed code, "Create a passkey" (in `browser`). */
  async function newUserWithPasskey(browser: Browser, p: RelyingParty, prefix = 'end-user'): Promise<{ email: string; passkey: Passkey }> {
    const email = uniqueEmail(prefix);
    const { request, end: page1 } = await open(browser, p);
    const codePage = await submitEmail(browser, page1, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    const after = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    await tokensFrom(p, after, request.verifier);
    return { email, passkey };
  }

  /** The passkey page's answer to a returning user's passkey (in `browser`): the redirect to the app, or the page it stopped at. */
  async function passkeyAnswer(browser: Browser, p: RelyingParty, email: string, passkey: Passkey, extra: Record<string, string> = {}) {
    const { request, end: page1 } = await open(browser, p, extra);
    const passkeyPage = await submitEmail(browser, page1, email);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), app.baseUrl);
    const after = await untilApp(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } }));
    return { request, after };
  }

  /** A returning user signs in with the passkey alone (in `browser`); answers the tokens the app got. */
  async function signInWithPasskey(browser: Browser, p: RelyingParty, email: string, passkey: Passkey, extra: Record<string, string> = {}) {
    const { request, after } = await passkeyAnswer(browser, p, email, passkey, extra);
    return tokensFrom(p, after, request.verifier);
  }

  /** The same user signs in with "Email me a code instead" (in `browser`). */
  async function signInWithCode(browser: Browser, p: RelyingParty, email: string, extra: Record<string, string> = {}) {
    const { request, end: page1 } = await open(browser, p, extra);
    const passkeyPage = await submitEmail(browser, page1, email);
    const codePage = await untilApp(browser, await browser.request(codeInsteadAction(passkeyPage), { form: { email, method: 'code' } }));
    let after = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(email) } }));
    // docs/decisions/0050: every fallback sign-in offers a passkey on this device; "Not now".
    if (isPasskeyOffer(after)) after = await untilApp(browser, await declinePasskey(browser, after));
    return tokensFrom(p, after, request.verifier);
  }

  return { open, signedInStraightAway, tokensFrom, newUserWithPasskey, passkeyAnswer, signInWithPasskey, signInWithCode };
}
