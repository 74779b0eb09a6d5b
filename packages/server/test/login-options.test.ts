import * as client from 'openid-client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api, type Project } from '@latchkey/domain';
import { loginMethods, registrationOptions } from '../src/oidc/passkeys.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, getProject, REDIRECT } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

type LoginOptions = Project['loginOptions'];

/** Each ceremony form of a passkey page: its button and the transports its options ask the browser for. */
function ways(page: BrowserResponse): Array<{ button: string; transports: string[][] }> {
  return [...page.text.matchAll(/<form[^>]*data-options="([^"]+)"[^>]*>[\s\S]*?<button class="[^"]+" type="submit">([^<]+)<\/button>/g)].map((m) => {
    const options = JSON.parse((m[1] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as {
      allowCredentials: Array<{ transports: string[] }>;
    };
    return { button: m[2] as string, transports: options.allowCredentials.map((c) => c.transports) };
  });
}

describe('the login methods a passkey page offers (spec §3 loginOptions)', () => {
  it.each<[boolean, boolean, 'browserLogin' | 'mobileLogin', string[]]>([
    [true, true, 'mobileLogin', ['phone', 'device']],
    [true, true, 'browserLogin', ['device', 'phone']],
    [true, false, 'mobileLogin', ['device']],
    [false, true, 'browserLogin', ['phone']],
    [false, false, 'browserLogin', ['device']],
  ])('browser %s, mobile %s, primary %s: %j', (browser, mobile, primary, expected) => {
    expect(loginMethods({ browser, mobile, primary })).toEqual(expected);
  });
});

describe("a passkey's creation options", () => {
  it('offer EdDSA, ES256 and RS256 by name, never asking the runtime about experimental algorithms (no warning on Node 24)', async () => {
    // SubtleCrypto.supports (Node 24.22 and later) is what the library's default asked.
    const subtle = (globalThis as unknown as { SubtleCrypto: { supports?: () => boolean } }).SubtleCrypto;
    const supports = subtle.supports ? vi.spyOn(subtle as { supports: () => boolean }, 'supports') : null;
    const options = await registrationOptions({
      rpName: 'Acme',
      rpID: 'localhost',
      userName: 'ada@example.com',
      userID: new Uint8Array(16),
      active: [],
      login: { browser: true, mobile: true, primary: 'mobileLogin' },
    });
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
    if (supports) expect(supports).not.toHaveBeenCalled();
  });
});

// docs/decisions/0017 "Login options": Browser Login is a passkey on this device, Mobile Login one
// on a phone or tablet through the browser's QR code; the primary is offered first.
describeWithDatabase('login options at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  async function project(loginOptions: Partial<LoginOptions>): Promise<RelyingParty> {
    const p = await projectWithRelyingParty(t, admin);
    const current = await getProject(admin, p.projectId);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), {
      ...current,
      loginOptions: { ...current.loginOptions, ...loginOptions },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return p;
  }

  async function page1(browser: Browser, p: RelyingParty) {
    const request = await authorizationRequest(p);
    return { request, page: await untilApp(browser, await browser.get(request.url.href)) };
  }

  /** A new user's passkey offer: answers its options and registers a passkey. */
  async function register(p: RelyingParty, email: string): Promise<{ passkey: Passkey; offer: BrowserResponse }> {
    const browser = new Browser();
    const { page } = await page1(browser, p);
    const codePage = await submitEmail(browser, page, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    return { passkey, offer };
  }

  async function passkeyPage(p: RelyingParty, email: string) {
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    return { browser, request, page: await submitEmail(browser, page, email) };
  }

  it('both methods, mobile primary (the defaults): the phone first, then this device; either signs in', async () => {
    const p = await project({ browserLoginEnabled: true, mobileLoginEnabled: true, primary: 'mobileLogin' });
    const email = uniqueEmail('both');
    const { passkey, offer } = await register(p, email);
    expect(pageOptions<CreationOptions & { authenticatorSelection: Record<string, unknown> }>(offer.text).authenticatorSelection).not.toHaveProperty(
      'authenticatorAttachment',
    );

    const { browser, request, page } = await passkeyPage(p, email);
    expect(ways(page)).toEqual([
      { button: 'Use a passkey on a phone or tablet', transports: [['hybrid']] },
      { button: 'Sign in with a passkey', transports: [['internal']] },
    ]);
    expect(page.text).toMatch(/<button class="primary" type="submit">Use a passkey on a phone or tablet<\/button>/);
    // The second way's options carry the same challenge: answering it signs in.
    const second = [...page.text.matchAll(/data-options="([^"]+)"/g)][1]?.[1] as string;
    const options = JSON.parse(second.replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as RequestOptions;
    const answer = usePasskey(passkey, options, t.baseUrl);
    const back = await untilApp(browser, await browser.request(formAction(page, 1), { form: { response: JSON.stringify(answer) } }));
    expect(back.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(p.config, new URL(back.location as string), { pkceCodeVerifier: request.verifier });
    const userinfo = await client.fetchUserInfo(p.config, tokens.access_token, tokens.claims()?.sub as string);
    expect(userinfo.email).toBe(email);
  });

  it('browser primary puts this device first', async () => {
    const p = await project({ browserLoginEnabled: true, mobileLoginEnabled: true, primary: 'browserLogin' });
    const email = uniqueEmail('browser-first');
    await register(p, email);
    expect((await passkeyPage(p, email)).page.text).toMatch(/<button class="primary" type="submit">Sign in with a passkey<\/button>/);
    expect(ways((await passkeyPage(p, email)).page).map((w) => w.button)).toEqual(['Sign in with a passkey', 'Use a passkey on a phone or tablet']);
  });

  it('Browser Login alone: a passkey on this device only, registered as a platform passkey', async () => {
    const p = await project({ browserLoginEnabled: true, mobileLoginEnabled: false });
    const email = uniqueEmail('browser-only');
    const { offer } = await register(p, email);
    expect(pageOptions<CreationOptions & { authenticatorSelection: Record<string, unknown> }>(offer.text).authenticatorSelection).toMatchObject({
      authenticatorAttachment: 'platform',
    });
    expect(ways((await passkeyPage(p, email)).page)).toEqual([{ button: 'Sign in with a passkey', transports: [['internal']] }]);
  });

  it('Mobile Login alone: a passkey on a phone only, registered cross-platform', async () => {
    const p = await project({ browserLoginEnabled: false, mobileLoginEnabled: true });
    const email = uniqueEmail('mobile-only');
    const { offer } = await register(p, email);
    expect(pageOptions<CreationOptions & { authenticatorSelection: Record<string, unknown> }>(offer.text).authenticatorSelection).toMatchObject({
      authenticatorAttachment: 'cross-platform',
    });
    expect(ways((await passkeyPage(p, email)).page)).toEqual([{ button: 'Use a passkey on a phone or tablet', transports: [['hybrid']] }]);
  });
});
