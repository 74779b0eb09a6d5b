import * as client from 'openid-client';
import { beforeEach, expect, it } from 'vitest';
import { api, type EnrollmentFunnel, type Project } from '@latchkey/domain';
import { LATER_TTL_MS } from '../src/oidc/passkey-steps/enrollment.ts';
import { userDevices } from '../src/people/devices.repository.ts';
import { anonymous, signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import {
  createPasskey,
  pageOptions,
  usePasskey,
  type AuthenticatorKind,
  type CreationOptions,
  type Passkey,
  type RequestOptions,
} from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, createProject, getProject, REDIRECT } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { codeInsteadAction, formAction, formHolding, isPasskeyOffer, linkHref, submitEmail } from './support/sign-in.ts';

interface ErrorAnswer {
  error: string;
  issues?: Array<{ field: string; code: string }>;
}

const DAY = 86_400_000;
const NOT_NOW = 'name="skip" value="1"';
const WITHOUT_WEBAUTHN = 'name="skip" value="unsupported"';

// Issue 37 "Enrollment", docs/decisions/0050: after every fallback sign-in (code, link, QuickCode, a
// phone's passkey by the cross-device flow) a passkey on this device is offered, also to a person
// holding passkeys elsewhere; "Not now" is remembered in that browser for 30 days; a project may
// require one after N fallback sign-ins; the usage API answers the funnel from its rollup.
describeEachDatabase('passkey enrollment after fallback sign-ins', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  // Signed in afresh for each test: the tests move the clock on by months, past a console session.
  beforeEach(async () => {
    admin = await signedInAccount(t, d.db);
  });

  async function project(settings: Partial<Project> = {}): Promise<RelyingParty> {
    const p = await projectWithRelyingParty(t, admin);
    if (Object.keys(settings).length > 0) {
      const current = await getProject(admin, p.projectId);
      const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...current, ...settings });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    return p;
  }

  async function page1(browser: Browser, p: RelyingParty) {
    // prompt=login: a browser signed in before signs in again (its "Not now" cookie is what is tested).
    const request = await authorizationRequest(p, { prompt: 'login' });
    const page = await untilApp(browser, await browser.get(request.url.href));
    expect(page.status, page.text).toBe(200);
    return { request, page };
  }

  /** The emailed code, by page 1's address (a new user) or "Email me a code instead" (one with a passkey): the page after it. */
  async function codeSignIn(browser: Browser, p: RelyingParty, email: string) {
    const { request, page } = await page1(browser, p);
    let codePage = await submitEmail(browser, page, email);
    if (codePage.text.includes('Sign in with a passkey')) {
      codePage = await untilApp(browser, await browser.request(codeInsteadAction(codePage), { form: { email, method: 'code' } }));
    }
    expect(codePage.text).toContain('We sent a 6-digit code to');
    const next = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    return { request, next };
  }

  async function subOf(p: RelyingParty, back: BrowserResponse, verifier: string): Promise<string> {
    expect(back.location ?? '', back.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(p.config, new URL(back.location as string), { pkceCodeVerifier: verifier });
    return tokens.claims()?.sub as string;
  }

  async function create(browser: Browser, offer: BrowserResponse, kind: AuthenticatorKind = {}) {
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl, kind);
    const back = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    return { passkey, back };
  }

  const decline = async (browser: Browser, offer: BrowserResponse, skip = '1') =>
    untilApp(browser, await browser.request(formHolding(offer, `name="skip" value="${skip}"`), { form: { skip } }));

  async function newUserWithPasskey(p: RelyingParty, kind: AuthenticatorKind = {}) {
    const email = uniqueEmail('enrol');
    const browser = new Browser();
    const { request, next } = await codeSignIn(browser, p, email);
    const { passkey, back } = await create(browser, next, kind);
    return { email, passkey, sub: await subOf(p, back, request.verifier) };
  }

  /** Page 1, the address, the passkey page answered with `passkey` in `browser`. */
  async function passkeySignIn(browser: Browser, p: RelyingParty, email: string, passkey: Passkey) {
    const { request, page } = await page1(browser, p);
    const passkeyPage = await submitEmail(browser, page, email);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    return { request, next: await untilApp(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } })) };
  }

  const devicesOf = (projectId: string, sub: string) => userDevices(d.db, projectId, sub);
  const actionsOf = async (projectId: string) =>
    (
      await d.db.query<{ details: { action: string; via?: string; reason?: string } }>(
        `SELECT details FROM audit_events WHERE project_id = $1 AND details->>'action' LIKE 'passkey.offer.%' ORDER BY created_at, id`,
        [projectId],
      )
    ).rows.map((r) => `${r.details.action} ${r.details.via ?? ''}${r.details.reason ? ` ${r.details.reason}` : ''}`.trim());

  it('offers a passkey on this device after the emailed code to a person holding one on another device; the page suggests a second passkey; BE/BS are stored', async () => {
    const p = await project();
    const first = await newUserWithPasskey(p);
    const [bound] = await devicesOf(p.projectId, first.sub);
    expect(bound).toMatchObject({ backupEligible: false, backedUp: false });

    const browser = new Browser();
    const { request, next: offer } = await codeSignIn(browser, p, first.email);
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    expect(offer.text).toContain('Your passkey is kept on one device only');
    expect(offer.text).toContain(NOT_NOW);
    const options = pageOptions<CreationOptions & { excludeCredentials?: Array<{ id: string }> }>(offer.text);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([first.passkey.id]);
    const { back } = await create(browser, offer, { synced: true });
    expect(await subOf(p, back, request.verifier)).toBe(first.sub);
    const devices = await devicesOf(p.projectId, first.sub);
    expect(devices.map((x) => [x.backupEligible, x.backedUp])).toEqual(
      expect.arrayContaining([
        [false, false],
        [true, true],
      ]),
    );
    // A person with a synced passkey is not told to add a second one.
    const again = await codeSignIn(new Browser(), p, first.email);
    expect(isPasskeyOffer(again.next)).toBe(true);
    expect(again.next.text).not.toContain('Your passkey is kept on one device only');
    expect(await actionsOf(p.projectId)).toEqual([
      'passkey.offer.shown email_code',
      'passkey.offer.shown email_code',
      'passkey.offer.shown email_code',
    ]);
  });

  it('"Not now" is remembered in that browser for that person for 30 days, then the offer comes back; another browser or person is offered', async () => {
    const p = await project();
    const email = uniqueEmail('later');
    const browser = new Browser();
    const { next: offer } = await codeSignIn(browser, p, email);
    const declined = await decline(browser, offer);
    expect(declined.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    // The cookie names the person by a keyed value, never the address.
    const cookie = browser.cookie('lk_passkey_later') ?? '';
    expect(cookie).not.toBe('');
    expect(cookie).not.toContain(email.split('@')[0] as string);

    const { next: straight } = await codeSignIn(browser, p, email);
    expect(isPasskeyOffer(straight)).toBe(false);
    expect(straight.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    // Another person in the same browser, and the same person in another browser: offered.
    expect(isPasskeyOffer((await codeSignIn(browser, p, uniqueEmail('other'))).next)).toBe(true);
    expect(isPasskeyOffer((await codeSignIn(new Browser(), p, email)).next)).toBe(true);

    t.clock.advance(LATER_TTL_MS - DAY);
    expect(isPasskeyOffer((await codeSignIn(browser, p, email)).next)).toBe(false);
    t.clock.advance(DAY + 60_000);
    expect(isPasskeyOffer((await codeSignIn(browser, p, email)).next)).toBe(true);
  });

  it('offers after the emailed link (the verification method) to a person holding a passkey elsewhere', async () => {
    const p = await project({
      verificationOptions: { method: 'standardEmail', url: '', confirmationURL: '', customText: '', identityTypeLabel: '' },
    });
    const email = uniqueEmail('link');
    const browser = new Browser();
    const { page } = await page1(browser, p);
    await submitEmail(browser, page, email);
    const { back } = await create(browser, await untilApp(browser, await browser.get(t.mailer.lastLink(email))));
    expect(back.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));

    const other = new Browser();
    const { page: again } = await page1(other, p);
    const passkeyPage = await submitEmail(other, again, email);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    await untilApp(other, await other.request(codeInsteadAction(passkeyPage), { form: { email, method: 'code' } }));
    const offer = await untilApp(other, await other.get(t.mailer.lastLink(email)));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    expect(await actionsOf(p.projectId)).toEqual(['passkey.offer.shown email_link', 'passkey.offer.shown email_link']);
  });

  it('offers after a QuickCode from another device, and after a phone passkey used by the cross-device flow', async () => {
    const p = await project({ enableRegistrationCode: true });
    const phone = await newUserWithPasskey(p, { transports: ['hybrid', 'internal'], attachment: 'cross-platform' });

    // The phone's passkey from a laptop (cross-device): signed in, then offered a passkey on the laptop.
    const laptop = new Browser();
    const { request, next: offer } = await passkeySignIn(laptop, p, phone.email, phone.passkey);
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const declined = await decline(laptop, offer);
    expect(await subOf(p, declined, request.verifier)).toBe(phone.sub);
    const { rows } = await d.db.query<{ n: number }>('SELECT fallback_sign_ins AS n FROM project_users WHERE project_id = $1 AND id = $2', [
      p.projectId,
      phone.sub,
    ]);
    expect(rows[0]?.n).toBe(1); // the first sign-in's code only: a passkey sign-in is no fallback
    // A platform passkey (this device's own) is never followed by an offer.
    const own = await newUserWithPasskey(p);
    const { next: signedIn } = await passkeySignIn(new Browser(), p, own.email, own.passkey);
    expect(signedIn.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));

    // A QuickCode issued on the phone, entered on a tablet: the offer.
    const phoneBrowser = new Browser();
    const { page } = await page1(phoneBrowser, p);
    const passkeyPage = await submitEmail(phoneBrowser, page, phone.email);
    const answer = usePasskey(phone.passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    const shown = await untilApp(
      phoneBrowser,
      await phoneBrowser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer), quickcode: '1' } }),
    );
    const code = /(\d{3}) (\d{3})<\/p>/.exec(shown.text)?.slice(1).join('') as string;
    const tablet = new Browser();
    const { page: tabletPage } = await page1(tablet, p);
    const entry = await untilApp(tablet, await tablet.get(linkHref(tabletPage, 'I have a QuickCode')));
    const quick = await untilApp(tablet, await tablet.request(formAction(entry), { form: { email: phone.email, code } }));
    expect(isPasskeyOffer(quick), quick.text).toBe(true);
    expect(await actionsOf(p.projectId)).toEqual([
      'passkey.offer.shown email_code',
      'passkey.offer.shown hybrid',
      'passkey.offer.declined hybrid',
      'passkey.offer.shown email_code',
      'passkey.offer.shown reg_code',
    ]);
  });

  it('off: no offer after the emailed code', async () => {
    const p = await project({ passkeyEnrollment: { mode: 'off', requireAfter: 3 } });
    const { next } = await codeSignIn(new Browser(), p, uniqueEmail('off'));
    expect(next.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    expect(await actionsOf(p.projectId)).toEqual([]);
  });

  it('require after N: past N fallback sign-ins "Not now" is gone, even where it was said before; a browser without WebAuthn continues', async () => {
    const p = await project({ passkeyEnrollment: { mode: 'require', requireAfter: 2 } });
    const email = uniqueEmail('required');
    const browser = new Browser();
    for (let i = 0; i < 2; i += 1) {
      const { next: offer } = await codeSignIn(browser, p, email);
      expect(offer.text).toContain(NOT_NOW);
      // Remembered after the first: the second is offered only because the first "Not now" is a while ago.
      await decline(browser, offer);
      t.clock.advance(LATER_TTL_MS + 60_000);
    }
    const { request, next: required } = await codeSignIn(browser, p, email);
    expect(isPasskeyOffer(required), required.text).toBe(true);
    expect(required.text).not.toContain(NOT_NOW);
    expect(required.text).toContain('asks you to create a passkey on this device to continue');
    expect(required.text).toContain(WITHOUT_WEBAUTHN);
    const refused = await browser.request(formAction(required, 1), { form: { skip: '1' } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Create a passkey to continue.');
    const continued = await decline(browser, refused, 'unsupported');
    const sub = await subOf(p, continued, request.verifier);
    expect(await devicesOf(p.projectId, sub)).toEqual([]);
    // Said in a browser before: still required (the cookie does not lift a requirement).
    const { next: stillRequired } = await codeSignIn(browser, p, email);
    expect(stillRequired.text).not.toContain(NOT_NOW);
    expect((await actionsOf(p.projectId)).slice(-2)).toEqual(['passkey.offer.declined email_code no_webauthn', 'passkey.offer.shown email_code']);
  });

  it('passkeyEnrollment: refused values answer 400 naming the field and store nothing; who may change it', async () => {
    const p = await project();
    const before = await getProject(admin, p.projectId);
    expect(before.passkeyEnrollment).toEqual({ mode: 'offer', requireAfter: 3 });
    const path = apiPath(api.updateProject, { project: p.projectId });
    for (const [bad, field] of [
      [{ mode: 'sometimes', requireAfter: 3 }, 'passkeyEnrollment.mode'],
      [{ mode: 'require', requireAfter: 0 }, 'passkeyEnrollment.requireAfter'],
      [{ mode: 'require', requireAfter: 21 }, 'passkeyEnrollment.requireAfter'],
      [{ mode: 'require', requireAfter: 2.5 }, 'passkeyEnrollment.requireAfter'],
      [{ mode: 'require', requireAfter: '3' }, 'passkeyEnrollment.requireAfter'],
      [{ mode: 'require' }, 'passkeyEnrollment.requireAfter'],
    ] as const) {
      const res = await admin.api.put<ErrorAnswer>(path, { ...before, passkeyEnrollment: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.issues?.map((i) => i.field)).toContain(field);
    }
    expect(await getProject(admin, p.projectId)).toEqual(before);

    const wanted = { ...before, passkeyEnrollment: { mode: 'require', requireAfter: 20 } };
    const usageOnly = await signedInAccount(t, d.db, [`cst:${p.projectId}:usage`]);
    expect((await usageOnly.api.put(path, wanted)).status).toBe(403);
    const otherAdmin = await signedInAccount(t, d.db, [`cst:${await createProject(admin)}:*`]);
    expect((await otherAdmin.api.put(path, wanted)).status).toBe(404);
    expect((await anonymous(t).put(path, wanted)).status).toBe(401);
    expect(await getProject(admin, p.projectId)).toEqual(before);

    const projectAdmin = await signedInAccount(t, d.db, [`cst:${p.projectId}:*`]);
    const saved = await projectAdmin.api.put<Project>(path, wanted);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.passkeyEnrollment).toEqual({ mode: 'require', requireAfter: 20 });
    const history = await admin.api.get(`${apiPath(api.listSettingsHistory, { project: p.projectId })}?page=general`);
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(JSON.stringify(history.body)).toContain('passkeyEnrollment');
  });

  it('the funnel counts exactly what a scripted set of sign-ins did; only who sees the dashboard reads it; bad ranges 400', async () => {
    const p = await project();
    // 1: a new user creates a passkey from the offer (shown, created; a fallback sign-in).
    const a = await newUserWithPasskey(p);
    // 2: they sign in with it (a passkey sign-in), 3: a wrong answer is refused (a ceremony that did not complete).
    await passkeySignIn(new Browser(), p, a.email, a.passkey);
    const wrong = new Browser();
    const { page } = await page1(wrong, p);
    const passkeyPage = await submitEmail(wrong, page, a.email);
    const stranger = createPasskey({ challenge: 'x', rp: {}, user: { id: 'eA' } }, t.baseUrl).passkey;
    stranger.id = a.passkey.id;
    await wrong.request(formAction(passkeyPage), {
      form: { response: JSON.stringify(usePasskey(stranger, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl)) },
    });
    // 4: a second user says "Not now" (shown, declined; a fallback sign-in), 5: then signs in by code again in that browser (a fallback, no offer).
    const b = uniqueEmail('funnel');
    const browser = new Browser();
    await decline(browser, (await codeSignIn(browser, p, b)).next);
    expect(isPasskeyOffer((await codeSignIn(browser, p, b)).next)).toBe(false);
    // 6: a third user only reaches the offer and leaves (shown; no sign-in).
    await codeSignIn(new Browser(), p, uniqueEmail('leaves'));

    const path = apiPath(api.getEnrollmentFunnel, { project: p.projectId });
    const res = await admin.api.get<EnrollmentFunnel>(path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      offers: { shown: 3, created: 1, declined: 1 },
      signIns: { passkey: 1, fallback: 3 },
      activeUsers: { total: 2, withPasskey: 1 },
      ceremonies: { started: 3 + 1 + 1, completed: 1 + 1 },
    });
    // Whole days: a range that ends before today counts nothing.
    const daysAgo = (n: number) => new Date(t.clock.now().getTime() - n * DAY).toISOString().slice(0, 10);
    const old = await admin.api.get<EnrollmentFunnel>(`${path}?${new URLSearchParams({ fromDate: daysAgo(10), toDate: daysAgo(1) })}`);
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    expect(old.body.offers).toEqual({ shown: 0, created: 0, declined: 0 });

    const usageOnly = await signedInAccount(t, d.db, [`cst:${p.projectId}:usage`]);
    expect((await usageOnly.api.get(path)).status).toBe(200);
    const auditOnly = await signedInAccount(t, d.db, [`cst:${p.projectId}:audit`]);
    expect((await auditOnly.api.get(path)).status).toBe(403);
    const otherProject = await signedInAccount(t, d.db, [`cst:${await createProject(admin)}:usage`]);
    expect((await otherProject.api.get(path)).status).toBe(404);
    for (const query of [
      { fromDate: 'yesterday', toDate: '2026-01-01' },
      { fromDate: '2026-05-01', toDate: '2026-04-01' },
      { fromDate: '2000-01-01', toDate: '2026-01-01' },
    ]) {
      const bad = await admin.api.get<ErrorAnswer>(`${path}?${new URLSearchParams(query)}`);
      expect(bad.status, JSON.stringify(query)).toBe(400);
      expect(bad.body.error).toBe('validation_failed');
    }
  });
});
