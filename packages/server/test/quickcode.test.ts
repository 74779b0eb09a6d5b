import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, buildPath, devicesApi, REVOCATION_REASON, type Project } from '@latchkey/domain';
import { LOOKUPS_PER_CLIENT, QUICK_CODE_TRIES, QUICK_CODE_TTL_MS } from '../src/oidc/passkeys.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, getProject, REDIRECT } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, isPasskeyOffer, linkHref, submitEmail } from './support/sign-in.ts';

/** The QuickCode on the page that shows one ("123 456"), digits only. */
const shownCode = (page: BrowserResponse): string | null =>
  /<p class="quickcode"[^>]*>(\d{3}) (\d{3})<\/p>/.exec(page.text)?.slice(1).join('') ?? null;

// spec §3 enableRegistrationCode, limitRegCodeVerified; docs/decisions/0017: a user signed in with a
// passkey gets a QuickCode; on another device it replaces the emailed code before a passkey is made.
describeWithDatabase('QuickCode: a signed-in device lets another device register', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  async function project(settings: Partial<Project> = { enableRegistrationCode: true }): Promise<RelyingParty> {
    const p = await projectWithRelyingParty(t, admin);
    const current = await getProject(admin, p.projectId);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...current, ...settings });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return p;
  }

  async function page1(browser: Browser, p: RelyingParty) {
    const request = await authorizationRequest(p);
    const page = await untilApp(browser, await browser.get(request.url.href));
    expect(page.status, page.text).toBe(200);
    return { request, page };
  }

  async function back(p: RelyingParty, last: BrowserResponse, verifier: string): Promise<string> {
    expect(last.location ?? '', last.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(p.config, new URL(last.location as string), { pkceCodeVerifier: verifier });
    return tokens.claims()?.sub as string;
  }

  /** A new user: email, code, passkey created. */
  async function newUser(p: RelyingParty, email: string): Promise<{ passkey: Passkey; sub: string }> {
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    const codePage = await submitEmail(browser, page, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const after = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    return { passkey, sub: await back(p, after, request.verifier) };
  }

  /** Signs in with the passkey asking for a QuickCode; answers the page that shows it and the sign-in to finish. */
  async function getQuickCode(p: RelyingParty, email: string, passkey: Passkey) {
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    const passkeyPage = await submitEmail(browser, page, email);
    expect(passkeyPage.text).toContain('Also get a QuickCode');
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    const shown = await untilApp(
      browser,
      await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer), quickcode: '1' } }),
    );
    expect(shown.status, shown.text).toBe(200);
    return { shown, code: shownCode(shown), browser, request };
  }

  /** On another device: page 1, "I have a QuickCode", the address and the code. */
  async function enterQuickCode(p: RelyingParty, email: string, code: string, browser = new Browser()) {
    const { request, page } = await page1(browser, p);
    const entry = await untilApp(browser, await browser.get(linkHref(page, 'I have a QuickCode')));
    expect(entry.text).toContain('Enter your QuickCode');
    const next = await untilApp(browser, await browser.request(formAction(entry), { form: { email, code } }));
    return { browser, request, next };
  }

  const eventsOf = async (projectId: string) =>
    (
      await d.db.query<{ scope: string; event_status: string; details: { action: string; reason?: string } }>(
        `SELECT scope, event_status, details FROM audit_events WHERE project_id = $1 AND scope IN ('reg-code', 'oidc') ORDER BY created_at, id`,
        [projectId],
      )
    ).rows.map((e) => `${e.scope} ${e.details.action} ${e.event_status}${e.details.reason ? ` ${e.details.reason}` : ''}`);

  it('a QuickCode from a signed-in passkey registers a passkey on another device without a mailed code, once', async () => {
    const p = await project();
    const email = uniqueEmail('quick');
    const first = await newUser(p, email);

    const { shown, code, browser, request } = await getQuickCode(p, email, first.passkey);
    expect(code).toMatch(/^\d{6}$/);
    expect(shown.text).toContain(`within ${QUICK_CODE_TTL_MS / 60_000} minutes`);
    // Continue finishes the sign-in the code was issued in.
    const continued = await untilApp(browser, await browser.request(formAction(shown), { method: 'POST', form: {} }));
    expect(await back(p, continued, request.verifier)).toBe(first.sub);

    const mailed = t.mailer.count(email);
    const other = await enterQuickCode(p, email, code as string);
    expect(isPasskeyOffer(other.next), other.next.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(other.next.text), t.baseUrl);
    const after = await untilApp(
      other.browser,
      await other.browser.request(formAction(other.next), { form: { response: JSON.stringify(response) } }),
    );
    expect(await back(p, after, other.request.verifier)).toBe(first.sub);
    expect(t.mailer.count(email)).toBe(mailed);
    const { rows } = await d.db.query<{ id: string; registered_with: string }>('SELECT id, registered_with FROM devices WHERE project_id = $1', [
      p.projectId,
    ]);
    // The test clock stands still: both devices have the same created_at, so they are told apart by id.
    expect(Object.fromEntries(rows.map((r) => [r.id, r.registered_with]))).toEqual({ [first.passkey.id]: 'email_code', [passkey.id]: 'reg_code' });

    // The code worked once.
    const again = await enterQuickCode(p, email, code as string);
    expect(again.next.status).toBe(400);
    expect(again.next.text).toContain('That QuickCode is not right, was used, or has expired');

    expect(await eventsOf(p.projectId)).toEqual([
      'oidc passkey.offer.shown success',
      'oidc device.register created',
      'oidc sign_in success',
      'oidc sign_in success',
      'reg-code reg_code.issued success',
      'reg-code reg_code.used success',
      'oidc passkey.offer.shown success',
      'oidc device.register created',
      'oidc sign_in success',
      'reg-code reg_code.used failed no_code',
    ]);
    const { rows: usage } = await d.db.query<{ key: string; count: string }>(
      `SELECT key, count::text FROM usage_daily WHERE project_id = $1 AND key = 'reg-code'`,
      [p.projectId],
    );
    expect(usage).toEqual([{ key: 'reg-code', count: '1' }]);
  });

  /** A project's user with a passkey who just got a QuickCode, and a code that is not it. */
  async function ownerWithQuickCode() {
    const p = await project();
    const email = uniqueEmail('owner');
    const { passkey } = await newUser(p, email);
    const code = (await getQuickCode(p, email, passkey)).code as string;
    return { p, email, passkey, code, wrong: code === '000000' ? '111111' : '000000' };
  }

  it('refuses a wrong code, a code after its tries, another user’s code, and an expired code; nothing is registered', async () => {
    const { p, email, passkey, code, wrong } = await ownerWithQuickCode();

    const stranger = uniqueEmail('stranger');
    await newUser(p, stranger);
    expect((await enterQuickCode(p, stranger, code as string)).next.status).toBe(400);

    // Five tries from one client address, then that address cannot try the code at all, the right one
    // included.
    const guesser = new Browser();
    for (let i = 0; i < QUICK_CODE_TRIES; i++) expect((await enterQuickCode(p, email, wrong, guesser)).next.status).toBe(400);
    expect((await enterQuickCode(p, email, code as string, guesser)).next.status).toBe(400);

    const fresh = (await getQuickCode(p, email, passkey)).code as string;
    t.clock.advance(QUICK_CODE_TTL_MS + 1000);
    try {
      expect((await enterQuickCode(p, email, fresh)).next.status).toBe(400);
    } finally {
      t.clock.advance(-(QUICK_CODE_TTL_MS + 1000));
    }
    const { rows } = await d.db.query('SELECT 1 FROM devices WHERE project_id = $1', [p.projectId]);
    expect(rows).toHaveLength(2);
    expect((await eventsOf(p.projectId)).filter((e) => e.startsWith('reg-code reg_code.used failed'))).toEqual([
      'reg-code reg_code.used failed no_code',
      ...Array.from({ length: QUICK_CODE_TRIES }, () => 'reg-code reg_code.used failed wrong'),
      'reg-code reg_code.used failed too_many',
      'reg-code reg_code.used failed no_code',
    ]);
  });

  it("a stranger's wrong tries do not use up the user's: their own address still gets the code's five (issue 22)", async () => {
    const { p, email, code, wrong } = await ownerWithQuickCode();
    const stranger = new Browser();
    for (let i = 0; i < QUICK_CODE_TRIES + 2; i++) expect((await enterQuickCode(p, email, wrong, stranger)).next.status).toBe(400);
    const mine = await enterQuickCode(p, email, code as string);
    expect(isPasskeyOffer(mine.next), mine.next.text).toBe(true);
    expect((await eventsOf(p.projectId)).filter((e) => e.startsWith('reg-code reg_code.used'))).toEqual([
      ...Array.from({ length: QUICK_CODE_TRIES }, () => 'reg-code reg_code.used failed wrong'),
      'reg-code reg_code.used failed too_many',
      'reg-code reg_code.used failed too_many',
      'reg-code reg_code.used success',
    ]);
  });

  it('with "limit to verified identities", a device registered with a QuickCode cannot issue one', async () => {
    const p = await project({ enableRegistrationCode: true, limitRegCodeVerified: true });
    const email = uniqueEmail('verified-only');
    const { passkey } = await newUser(p, email);
    const { code } = await getQuickCode(p, email, passkey);
    const other = await enterQuickCode(p, email, code as string);
    const { passkey: second, response } = createPasskey(pageOptions<CreationOptions>(other.next.text), t.baseUrl);
    await untilApp(other.browser, await other.browser.request(formAction(other.next), { form: { response: JSON.stringify(response) } }));

    const refused = await getQuickCode(p, email, second);
    expect(refused.code).toBeNull();
    expect(refused.shown.text).toContain('A QuickCode can be issued only from a device that was registered by verifying your email address.');
    // The sign-in itself goes on.
    const continued = await untilApp(refused.browser, await refused.browser.request(formAction(refused.shown), { method: 'POST', form: {} }));
    expect(continued.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    // The verified device still can.
    expect((await getQuickCode(p, email, passkey)).code).toMatch(/^\d{6}$/);
  });

  it('a revoked device’s QuickCode dies with it', async () => {
    const p = await project();
    const email = uniqueEmail('revoked');
    const { passkey } = await newUser(p, email);
    const { code } = await getQuickCode(p, email, passkey);
    const res = await admin.api.post(`/api${buildPath(devicesApi.revokeDevice.path, { project: p.projectId, mpinId: passkey.id })}`, {
      reason: REVOCATION_REASON,
    });
    expect(res.status).toBe(200);
    expect((await enterQuickCode(p, email, code as string)).next.status).toBe(400);
  });

  it('offers no QuickCode when the project has them off', async () => {
    const p = await project({ enableRegistrationCode: false });
    const email = uniqueEmail('off');
    const { passkey } = await newUser(p, email);
    const browser = new Browser();
    const { page } = await page1(browser, p);
    expect(page.text).not.toContain('I have a QuickCode');
    const passkeyPage = await submitEmail(browser, page, email);
    expect(passkeyPage.text).not.toContain('Also get a QuickCode');
    // Asking anyway signs in without a code.
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    const last = await untilApp(
      browser,
      await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer), quickcode: '1' } }),
    );
    expect(last.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    const entry = await untilApp(browser, await browser.get(`${new URL(formAction(passkeyPage)).href.replace(/\/passkey$/, '/quickcode')}`));
    expect(entry.text).not.toContain('Enter your QuickCode');
  });

  it('page 1 answers whether an address has a passkey only so many times per client address', async () => {
    const p = await project();
    const email = uniqueEmail('lookup');
    await newUser(p, email);
    // An address with a passkey is answered with the passkey page and no mail: the lookups are what is limited.
    const browser = new Browser();
    for (let i = 0; i < LOOKUPS_PER_CLIENT; i++) {
      const { page } = await page1(browser, p);
      const next = await submitEmail(browser, page, email);
      expect(next.text).toContain('Sign in with a passkey');
    }
    const { page } = await page1(browser, p);
    const refused = await submitEmail(browser, page, email);
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many tries from your network');
    // Another client address is not affected.
    const other = new Browser();
    const { page: theirs } = await page1(other, p);
    expect((await submitEmail(other, theirs, email)).text).toContain('Sign in with a passkey');
  });
});
