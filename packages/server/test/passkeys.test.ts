import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { userDevices, type Device } from '../src/people/devices.repository.ts';
import { signedInAccount, startTestApp, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { REDIRECT, storeDevice } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { codeInsteadAction, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

// docs/decisions/0013: a new user verified by code is offered a passkey; a returning user gives their
// address, then signs in with the passkey alone; options and answers are scoped to the project.
describeWithDatabase('end users sign in with passkeys at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  const project = () => projectWithRelyingParty(t, admin);

  async function emailStep(browser: Browser, p: RelyingParty, email: string) {
    const request = await authorizationRequest(p);
    const page1 = (await browser.follow(await browser.get(request.url.href))).at(-1) as BrowserResponse;
    expect(page1.status, page1.text).toBe(200);
    return { request, next: await submitEmail(browser, page1, email) };
  }

  /** The sub the application gets from the redirect back to it. */
  async function subOf(p: RelyingParty, callback: BrowserResponse, verifier: string): Promise<string> {
    expect(callback.location ?? '', callback.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(p.config, new URL(callback.location as string), { pkceCodeVerifier: verifier });
    return tokens.claims()?.sub as string;
  }

  /** A new user: address, emailed code, then the passkey offer (answered). */
  async function offerFor(browser: Browser, p: RelyingParty, email: string, codeOf = (to: string) => t.mailer.lastCode(to)) {
    const { request, next: codePage } = await emailStep(browser, p, email);
    expect(codePage.text).toContain('We sent a 6-digit code to');
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: codeOf(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    return { request, offer };
  }

  /** "Create a passkey": the authenticator answers the page's options; answers the passkey and the page after. */
  async function register(browser: Browser, offer: BrowserResponse) {
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const posted = await browser.request(formAction(offer), {
      form: { response: JSON.stringify(response) },
      headers: { 'user-agent': CHROME_ON_LINUX },
    });
    return { passkey, after: await untilApp(browser, posted) };
  }

  async function newUserWithPasskey(p: RelyingParty, email = uniqueEmail('passkey')): Promise<{ email: string; passkey: Passkey; sub: string }> {
    const browser = new Browser();
    const { request, offer } = await offerFor(browser, p, email);
    const { passkey, after } = await register(browser, offer);
    return { email, passkey, sub: await subOf(p, after, request.verifier) };
  }

  /** A returning user: the address, then the passkey page. */
  async function passkeyPageFor(browser: Browser, p: RelyingParty, email: string) {
    const { request, next } = await emailStep(browser, p, email);
    expect(next.status, next.text).toBe(200);
    expect(next.text).toContain('Sign in with a passkey');
    return { request, page: next };
  }

  async function assert(browser: Browser, page: BrowserResponse, passkey: Passkey): Promise<BrowserResponse> {
    const response = usePasskey(passkey, pageOptions<RequestOptions>(page.text), t.baseUrl);
    return untilApp(browser, await browser.request(formAction(page), { form: { response: JSON.stringify(response) } }));
  }

  const devicesOf = async (projectId: string, email: string): Promise<Device[]> => {
    const { rows } = await d.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [projectId, email]);
    return rows[0] ? userDevices(d.db, projectId, rows[0].id) : [];
  };
  const revoke = (projectId: string, id: string) =>
    d.db.query(`UPDATE devices SET revoked = true, revoked_at = now(), revoke_reason = 'PORTAL_REVOKE' WHERE project_id = $1 AND id = $2`, [
      projectId,
      id,
    ]);

  it('a new user verified by code creates a passkey, then signs in with the passkey alone as the same sub', async () => {
    const p = await project();
    const browser = new Browser();
    const { email, passkey, sub } = await newUserWithPasskey(p);
    const [device] = await devicesOf(p.projectId, email);
    expect(device).toMatchObject({ id: passkey.id, userId: sub, name: 'Chrome on Linux', revoked: false, transports: ['internal'] });
    expect(device?.ip).toMatch(/^198\.18\./);

    const codesBefore = t.mailer.count(email);
    const { request, page } = await passkeyPageFor(browser, p, email);
    expect(page.text).toContain('Email me a code instead');
    const after = await assert(browser, page, passkey);
    expect(await subOf(p, after, request.verifier)).toBe(sub);
    expect(t.mailer.count(email)).toBe(codesBefore); // no code was mailed
    const [used] = await devicesOf(p.projectId, email);
    expect(used?.counter).toBe(1);
    expect(used?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('"Not now" signs the new user in without a passkey; "Email me a code instead" still signs in a user who has one, after the offer', async () => {
    const p = await project();
    const email = uniqueEmail('declines');
    const browser = new Browser();
    const { request, offer } = await offerFor(browser, p, email);
    const declined = await untilApp(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
    expect(await subOf(p, declined, request.verifier)).toBeTruthy();
    expect(await devicesOf(p.projectId, email)).toEqual([]);

    const withPasskey = await newUserWithPasskey(p);
    const other = new Browser();
    const { request: second, page } = await passkeyPageFor(other, p, withPasskey.email);
    const codePage = await untilApp(other, await other.request(codeInsteadAction(page), { form: { email: withPasskey.email, method: 'code' } }));
    expect(codePage.text).toContain('We sent a 6-digit code to');
    // docs/decisions/0050: offered a passkey on this device too (theirs is on another); "Not now" signs them in.
    const again = await untilApp(other, await other.request(formAction(codePage), { form: { code: t.mailer.lastCode(withPasskey.email) } }));
    expect(isPasskeyOffer(again), again.text).toBe(true);
    const signedIn = await untilApp(other, await other.request(formAction(again, 1), { form: { skip: '1' } }));
    expect(await subOf(p, signedIn, second.verifier)).toBe(withPasskey.sub);
  });

  it("offers only the user's own non-revoked passkeys of this project", async () => {
    const a = await project();
    const b = await project();
    const user = await newUserWithPasskey(a);
    await newUserWithPasskey(a); // another user of the same project
    await newUserWithPasskey(b, user.email); // the same address at another project
    const revokedId = 'revoked-credential-id';
    await storeDevice(d.db, {
      projectId: a.projectId,
      id: revokedId,
      userId: user.sub,
      transports: ['usb'],
      name: 'Old key',
      createdAt: t.clock.now(),
    });
    await revoke(a.projectId, revokedId);

    const { page } = await passkeyPageFor(new Browser(), a, user.email);
    const options = pageOptions<RequestOptions & { rpId: string; userVerification: string }>(page.text);
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([user.passkey.id]);
    expect(options).toMatchObject({ rpId: '127.0.0.1', userVerification: 'required' });
  });

  it("refuses another project's passkey: its assertion, and a registration answer made for that project", async () => {
    const a = await project();
    const b = await project();
    const atA = await newUserWithPasskey(a);
    const atB = await newUserWithPasskey(b, atA.email);

    // The client ignores allowCredentials and answers B's challenge with A's passkey.
    const browser = new Browser();
    const { page } = await passkeyPageFor(browser, b, atA.email);
    const refused = await assert(browser, page, atA.passkey);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('That passkey is not registered for this account');
    expect(refused.location).toBeNull();
    expect((await devicesOf(a.projectId, atA.email))[0]?.lastUsedAt).toBeNull();
    // B's own passkey still works on the page it got instead.
    expect(await assert(browser, refused, atB.passkey)).toMatchObject({ status: 303 });

    // A registration answer made for A's ceremony, posted to B's: refused, nothing stored at B.
    const email = uniqueEmail('replay');
    const { offer: offerA } = await offerFor(new Browser(), a, email);
    const made = createPasskey(pageOptions<CreationOptions>(offerA.text), t.baseUrl);
    const atBBrowser = new Browser();
    const { offer: offerB } = await offerFor(atBBrowser, b, email);
    const replayed = await atBBrowser.request(formAction(offerB), { form: { response: JSON.stringify(made.response) } });
    expect(replayed.status).toBe(400);
    expect(replayed.text).toContain('No passkey was created');
    expect(await devicesOf(b.projectId, email)).toEqual([]);
  });

  it('refuses a revoked passkey with a page saying so; the user may verify by email and create a new one', async () => {
    const p = await project();
    const user = await newUserWithPasskey(p);
    const browser = new Browser();
    const { page } = await passkeyPageFor(browser, p, user.email);
    await revoke(p.projectId, user.passkey.id); // revoked after the options were shown
    const refused = await assert(browser, page, user.passkey);
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This passkey was revoked');
    expect(refused.location).toBeNull();

    const again = new Browser();
    const { next } = await emailStep(again, p, user.email);
    expect(next.status).toBe(403);
    expect(next.text).toContain('This passkey was revoked');
    const codePage = await untilApp(again, await again.request(formAction(next), { form: { email: user.email, method: 'code' } }));
    const offer = await untilApp(again, await again.request(formAction(codePage), { form: { code: t.mailer.lastCode(user.email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
  });

  it('completes a passkey sign-in whose steps alternate between two instances on one database', async () => {
    const second = await startTestApp(d.db, { listen: true, env: { PUBLIC_URL: t.baseUrl } });
    try {
      let hops = 0;
      const instances = [new URL(t.baseUrl).port, String(second.config.port)];
      const via = (url: URL) => {
        hops += 1;
        const target = new URL(url);
        target.port = instances[hops % 2] as string;
        return target;
      };
      const p = await project();
      const email = uniqueEmail('two-instances');
      const first = new Browser({ via });
      // Either instance may have mailed the code.
      const codeOf = (to: string) => [...t.mailer.sent, ...second.mailer.sent].filter((m) => m.email === to).at(-1)?.code ?? 'none';
      const { request, offer } = await offerFor(first, p, email, codeOf);
      const { passkey, after } = await register(first, offer);
      const sub = await subOf(p, after, request.verifier);

      const browser = new Browser({ via });
      const { request: next, page } = await passkeyPageFor(browser, p, email);
      expect(await subOf(p, await assert(browser, page, passkey), next.verifier)).toBe(sub);
      expect(hops).toBeGreaterThan(10);
    } finally {
      await second.close();
    }
  });

  it('serves the passkey scripts from its own origin; the pages carry no inline script', async () => {
    const p = await project();
    const { offer } = await offerFor(new Browser(), p, uniqueEmail('scripts'));
    const sources = [...offer.text.matchAll(/<script([^>]*)>/g)].map((m) => m[1] as string);
    expect(sources).toEqual([' defer src="/idp/assets/simplewebauthn-browser.js"', ' defer src="/idp/assets/passkey.js"']);
    expect(offer.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Chromium checks form-action along the redirects after a form: the last one goes to the client.
    expect(offer.headers.get('content-security-policy')).toContain(`form-action 'self' ${new URL(REDIRECT).origin};`);
    for (const path of ['/idp/assets/simplewebauthn-browser.js', '/idp/assets/passkey.js']) {
      const res = await fetch(`${t.baseUrl}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/javascript');
    }
    expect(await (await fetch(`${t.baseUrl}/idp/assets/simplewebauthn-browser.js`)).text()).toContain('startRegistration');
  });
});
