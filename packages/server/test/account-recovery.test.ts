import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { api, buildPath, endUsersApi, type EndUserDetail, type Project, type ReenrollmentLink } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { endUserSignIns } from './support/end-user-sign-in.ts';
import { HOUR } from './support/fakes.ts';
import { apiPath, getProject, personOf } from './support/fixtures.ts';
import { projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { codeInsteadAction, declinePasskey, formAction, isPasskeyOffer, linkHref, submitEmail } from './support/sign-in.ts';
import { MAX_TRIES_PER_ADDRESS } from '../src/oidc/login-codes.service.ts';

/** The codes a recovery-codes page shows (ABCDE-23456). */
const shownCodes = (page: BrowserResponse): string[] =>
  [...page.text.matchAll(/<li><code>([A-Z2-7]{5}-[A-Z2-7]{5})<\/code><\/li>/g)].map((m) => m[1] as string);

/** The form whose button says `button`: its action and hidden fields. */
function formNamed(page: BrowserResponse, button: string): { action: string; fields: Record<string, string> } {
  const found = [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].find((m) =>
    (m[2] as string).includes(`>${button}</button>`),
  );
  if (!found) throw new Error(`no form "${button}" on ${page.url}:\n${page.text}`);
  const fields = Object.fromEntries(
    [...(found[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [
      f[1] as string,
      (f[2] as string).replaceAll('&amp;', '&'),
    ]),
  );
  return { action: new URL((found[1] as string).replaceAll('&amp;', '&'), page.url).href, fields };
}

// Issue 37 "Recovery"; docs/decisions/0051.
describeEachDatabase('account recovery at a project’s issuer', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  const { open, newUserWithPasskey, tokensFrom } = endUserSignIns(app);
  const accountUrl = (p: RelyingParty) => `${app.baseUrl}/p/${p.projectId}/account`;
  const last = async (browser: Browser, first: Promise<BrowserResponse>) => (await browser.follow(await first)).at(-1) as BrowserResponse;
  const eventsOf = async (projectId: string, action: string) =>
    (
      await t.db.query<{ event_status: string; user_id: string; details: Record<string, unknown> }>(
        `SELECT event_status, user_id, details FROM audit_events WHERE project_id = $1 AND details->>'action' = $2 ORDER BY id`,
        [projectId, action],
      )
    ).rows;
  const webhookTopics = async (projectId: string) =>
    (
      await t.db.query<{ topic: string }>(`SELECT topic FROM outbox_messages WHERE project_id = $1 AND kind = 'webhook' ORDER BY created_at`, [
        projectId,
      ])
    ).rows.map((r) => r.topic);
  const activePasskeys = async (projectId: string, email: string) =>
    (
      await t.db.query<{ id: string; registered_with: string }>(
        'SELECT id, registered_with FROM devices WHERE project_id = $1 AND user_id = $2 AND NOT revoked ORDER BY created_at',
        [projectId, await personOf(t.db, projectId, email)],
      )
    ).rows;

  /** The account page's "Create a passkey" link. */
  const newPasskeyUrl = (page: BrowserResponse) =>
    new URL(/<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string, page.url).href;
  /** Opens the account page's new-passkey form at `url` (200) and answers it with a new passkey; the page after it. */
  async function createOnAccountPage(browser: Browser, url: string): Promise<BrowserResponse> {
    const form = await browser.get(url);
    expect(form.status, form.text).toBe(200);
    const { response } = createPasskey(pageOptions<CreationOptions>(form.text), app.baseUrl);
    return last(
      browser,
      browser.request(formAction(form), { form: { ...formNamed(form, 'Create a passkey').fields, response: JSON.stringify(response) } }),
    );
  }

  async function setUp(settings: Partial<Project> = {}): Promise<{ admin: SignedIn; p: RelyingParty; email: string; passkey: Passkey }> {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...(await getProject(admin, p.projectId)), ...settings });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Every recovery event reaches a webhook endpoint subscribed to it.
    const hook = await admin.api.post(`/api/projects/${p.projectId}/webhooks`, {
      url: 'https://hooks.example.com/recovery',
      eventTypes: [
        'recovery.codes_created',
        'recovery.code_used',
        'recovery.email_started',
        'recovery.email_cancelled',
        'recovery.link_created',
        'recovery.link_used',
      ],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const { email, passkey } = await newUserWithPasskey(new Browser(), p, 'recovery');
    return { admin, p, email, passkey };
  }

  /** A fresh browser signs in to the account page with the passkey. */
  async function accountWithPasskey(p: RelyingParty, email: string, passkey: Passkey, browser = new Browser()) {
    const page1 = await last(browser, browser.get(accountUrl(p)));
    const passkeyPage = await submitEmail(browser, page1, email);
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), app.baseUrl);
    const page = await last(browser, browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } }));
    expect(page.url, page.text).toBe(accountUrl(p));
    return { browser, page };
  }

  /** A fresh browser signs in to the account page with "Email me a code instead" (a person who holds a passkey). */
  async function accountWithCode(p: RelyingParty, email: string, browser = new Browser()) {
    const page1 = await last(browser, browser.get(accountUrl(p)));
    const passkeyPage = await submitEmail(browser, page1, email);
    const codePage = await last(browser, browser.request(codeInsteadAction(passkeyPage), { form: { email, method: 'code' } }));
    let page = await last(browser, browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(email) } }));
    // docs/decisions/0050: with no emailRecoveryDelay, a person holding passkeys is offered one on this device too ("Not now" here).
    if (isPasskeyOffer(page)) page = await last(browser, declinePasskey(browser, page));
    expect(page.url, page.text).toBe(accountUrl(p));
    return { browser, page };
  }

  async function createCodes(p: RelyingParty, email: string, passkey: Passkey): Promise<string[]> {
    const { browser, page } = await accountWithPasskey(p, email, passkey);
    expect(page.text).toContain('You have no recovery codes.');
    const create = formNamed(page, 'Create recovery codes');
    // Without this session's form token, or from a browser not signed in here, nothing is made.
    expect((await browser.request(create.action, { form: { ...create.fields, csrf: 'forged' } })).status).toBe(403);
    const stranger = await new Browser().request(create.action, { form: create.fields });
    expect(stranger.status).toBe(303);
    expect(stranger.location).toContain('/auth?');
    expect((await t.db.query('SELECT 1 FROM recovery_codes WHERE project_id = $1', [p.projectId])).rows).toEqual([]);
    const made = await browser.request(formNamed(page, 'Create recovery codes').action, { form: formNamed(page, 'Create recovery codes').fields });
    expect(made.status, made.text).toBe(200);
    const codes = shownCodes(made);
    expect(codes).toHaveLength(10);
    expect(made.text).toContain('download="');
    return codes;
  }

  /** "Use a recovery code" on page 1 of a new sign-in; answers the page after posting `code` for `identity`. */
  async function useCode(browser: Browser, p: RelyingParty, identity: string, code: string) {
    const { request, end: page1 } = await open(browser, p);
    const recoveryPage = await browser.get(linkHref(page1, 'Use a recovery code'));
    expect(recoveryPage.status, recoveryPage.text).toBe(200);
    const after = await untilApp(browser, await browser.request(formAction(recoveryPage), { form: { email: identity, code } }));
    return { request, after };
  }

  it('creates a set of ten codes shown once and kept as keyed hashes; a new set replaces it; the page says how many are left', async () => {
    const { p, email, passkey } = await setUp();
    const codes = await createCodes(p, email, passkey);
    const { rows } = await t.db.query<{ code_hash: string }>('SELECT code_hash FROM recovery_codes WHERE project_id = $1', [p.projectId]);
    expect(rows).toHaveLength(10);
    // Nothing stored is a code, in any spelling.
    const plain = codes.flatMap((c) => [c, c.toLowerCase(), c.replace('-', '').toLowerCase()]);
    expect(rows.filter((r) => plain.some((c) => r.code_hash.includes(c)))).toEqual([]);
    const { page } = await accountWithPasskey(p, email, passkey);
    expect(page.text).toContain('10 of 10 recovery codes left.');
    expect(await eventsOf(p.projectId, 'recovery.codes_created')).toEqual([
      expect.objectContaining({
        event_status: 'success',
        user_id: await personOf(t.db, p.projectId, email),
        details: expect.objectContaining({ count: 10 }),
      }),
    ]);
    // A second set ("Create new recovery codes" now): the first one's codes sign in no more.
    const { browser, page: withSet } = await accountWithPasskey(p, email, passkey);
    const replaced = await browser.request(formNamed(withSet, 'Create new recovery codes').action, {
      form: formNamed(withSet, 'Create new recovery codes').fields,
    });
    const second = shownCodes(replaced);
    expect(second).toHaveLength(10);
    const { after } = await useCode(new Browser(), p, email, codes[0] as string);
    expect(after.status).toBe(400);
    expect(after.text).toContain('do not match, or the code was used already');
    expect((await t.db.query('SELECT 1 FROM recovery_codes WHERE project_id = $1', [p.projectId])).rows).toHaveLength(10);
    expect(await webhookTopics(p.projectId)).toEqual(['recovery.codes_created', 'recovery.codes_created']);
  });

  it('signs a person who lost their passkey in with a code, once, straight to a new passkey; mails them, audits and sends the webhook', async () => {
    const { p, email, passkey } = await setUp();
    const codes = await createCodes(p, email, passkey);
    // The lost passkey: revoked by an administrator.
    await t.db.query('UPDATE devices SET revoked = true WHERE project_id = $1 AND id = $2', [p.projectId, passkey.id]);
    const browser = new Browser();
    // A wrong code is refused and counted; nothing is used.
    const wrong = await useCode(browser, p, email, 'AAAAA-22222');
    expect(wrong.after.status).toBe(400);
    expect(await eventsOf(p.projectId, 'recovery.code_used')).toEqual([
      expect.objectContaining({ event_status: 'failed', details: expect.objectContaining({ reason: 'wrong' }) }),
    ]);
    // Typed in lower case, without the hyphen, the code stands for the emailed code: the passkey offer follows.
    const { request, after: offer } = await useCode(browser, p, email, (codes[3] as string).replace('-', ' ').toLowerCase());
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    const back = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    await tokensFrom(p, back, request.verifier);
    expect(await activePasskeys(p.projectId, email)).toEqual([expect.objectContaining({ registered_with: 'recovery_code' })]);
    // The notice, the event and the webhook.
    const notice = app.mailer.notices.filter((n) => n.email === email).at(-1);
    expect(notice?.notice).toMatchObject({ kind: 'recovery_code_used', language: 'en' });
    expect(notice?.notice.text).toContain('You have 9 recovery codes left.');
    expect((await eventsOf(p.projectId, 'recovery.code_used')).at(-1)).toMatchObject({
      event_status: 'success',
      user_id: await personOf(t.db, p.projectId, email),
      details: { codesLeft: 9 },
    });
    expect(await webhookTopics(p.projectId)).toContain('recovery.code_used');
    // Used once: the same code again is refused.
    const reused = await useCode(new Browser(), p, email, codes[3] as string);
    expect(reused.after.status).toBe(400);
    expect((await t.db.query('SELECT 1 FROM recovery_codes WHERE project_id = $1 AND used_at IS NOT NULL', [p.projectId])).rows).toHaveLength(1);
  });

  it('limits tries per identity and client address as the emailed codes: a stranger’s guesses never lock the person out', async () => {
    const { p, email, passkey } = await setUp();
    const codes = await createCodes(p, email, passkey);
    const stranger = new Browser();
    const { end: page1 } = await open(stranger, p);
    const form = formAction(await stranger.get(linkHref(page1, 'Use a recovery code')));
    for (let i = 0; i < MAX_TRIES_PER_ADDRESS; i += 1) {
      expect(
        (
          await stranger.request(form, {
            form: {
              email,
              code: `AAAAA-${String(i)
                .padStart(5, '2')
                .replace(/[01890]/g, '3')}`,
            },
          })
        ).status,
      ).toBe(400);
    }
    // The stranger is stopped, even with a right code…
    const stopped = await stranger.request(form, { form: { email, code: codes[0] as string } });
    expect(stopped.status).toBe(429);
    expect(stopped.text).toContain('Too many tries');
    // …the person, from their own address, is not.
    const { after } = await useCode(new Browser(), p, email, codes[0] as string);
    expect(isPasskeyOffer(after), after.text).toBe(true);
    // Bad input is refused with nothing used or counted as a try.
    const bad = await useCode(new Browser(), p, email, 'not a code');
    expect(bad.after.status).toBe(400);
    expect(bad.after.text).toContain('10 letters and digits');
    app.clock.advance(HOUR);
  });

  it('mails a person who holds passkeys when they sign in by the emailed code', async () => {
    const { p, email } = await setUp();
    const before = app.mailer.notices.length;
    await accountWithCode(p, email);
    const notices = app.mailer.notices.slice(before).filter((n) => n.email === email);
    expect(notices).toEqual([expect.objectContaining({ notice: expect.objectContaining({ kind: 'email_sign_in' }) })]);
    // No delay by default: no "This wasn't me" link, no recovery waiting.
    expect(notices[0]?.notice.link).toBeUndefined();
    expect((await t.db.query('SELECT 1 FROM email_recoveries WHERE project_id = $1', [p.projectId])).rows).toEqual([]);
    // A person without a passkey who signs in by code is told nothing.
    const other = uniqueEmail('nopasskey');
    const browser = new Browser();
    const { end: page1 } = await open(browser, p);
    const codePage = await submitEmail(browser, page1, other);
    await untilApp(browser, await browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(other) } }));
    expect(app.mailer.notices.filter((n) => n.email === other)).toEqual([]);
  });

  it('with a delay, a new passkey after an email-only sign-in waits (the page says until when); allowed once the clock passes it', async () => {
    const { p, email } = await setUp({ emailRecoveryDelay: '24h' });
    const { browser, page } = await accountWithCode(p, email);
    const notice = app.mailer.notices.filter((n) => n.email === email).at(-1)?.notice;
    expect(notice?.link).toMatch(new RegExp(`^${accountUrl(p)}/recovery/stop\\?t=`));
    expect(notice?.text).toContain("This wasn't me: ");
    const started = await eventsOf(p.projectId, 'recovery.email_started');
    expect(started).toHaveLength(1);
    const newUrl = newPasskeyUrl(page);
    const waiting = await browser.get(newUrl);
    expect(waiting.status).toBe(403);
    expect(waiting.text).toContain('A new passkey has to wait');
    // The person has an address: the page says the notice went there.
    expect(waiting.text).toContain('You signed in without one of your passkeys.');
    expect(waiting.text).toContain('We emailed you about it.');
    const until = new Date(app.clock.now().getTime() + 24 * HOUR);
    expect(waiting.text).toContain(
      `${new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(until)} UTC`,
    );
    // A posted passkey is refused too, nothing stored.
    const posted = await browser.request(newUrl, { form: { csrf: formNamed(page, 'Create recovery codes').fields.csrf as string, response: '{}' } });
    expect(posted.status).toBe(403);
    expect(await activePasskeys(p.projectId, email)).toHaveLength(1);
    expect(await webhookTopics(p.projectId)).toContain('recovery.email_started');
    // The test clock passes the delay: a fresh sign-in by code (what adding a passkey asks) may add it.
    app.clock.advance(24 * HOUR + 60_000);
    const { browser: later } = await accountWithCode(p, email);
    const added = await createOnAccountPage(later, newUrl);
    expect(added.text).toContain('The passkey was created.');
    expect(await activePasskeys(p.projectId, email)).toHaveLength(2);
    expect((await t.db.query(`SELECT ended_how FROM email_recoveries WHERE project_id = $1 ORDER BY created_at`, [p.projectId])).rows[0]).toEqual({
      ended_how: 'used',
    });
  });

  it('“This wasn’t me” ends the recovery, once, audited; no passkey can then be added with it', async () => {
    const { p, email } = await setUp({ emailRecoveryDelay: '72h' });
    const { browser, page } = await accountWithCode(p, email);
    const link = app.mailer.notices.filter((n) => n.email === email).at(-1)?.notice.link as string;
    // Opening the link only asks (a mail scanner ends nothing).
    const asked = await new Browser().get(link);
    expect(asked.status).toBe(200);
    expect((await t.db.query('SELECT 1 FROM email_recoveries WHERE project_id = $1 AND ended_at IS NULL', [p.projectId])).rows).toHaveLength(1);
    const stop = formNamed(asked, 'Stop the recovery');
    const stopped = await new Browser().request(stop.action, { form: stop.fields });
    expect(stopped.status).toBe(200);
    expect(stopped.text).toContain('The recovery was stopped');
    expect((await new Browser().request(stop.action, { form: stop.fields })).status).toBe(404);
    expect((await new Browser().request(stop.action, { form: { t: 'forged' } })).status).toBe(404);
    expect(await eventsOf(p.projectId, 'recovery.email_cancelled')).toEqual([
      expect.objectContaining({ event_status: 'success', user_id: await personOf(t.db, p.projectId, email) }),
    ]);
    expect(await webhookTopics(p.projectId)).toContain('recovery.email_cancelled');
    // Past the delay, the ended recovery allows nothing: asking starts a new one, mailed again.
    app.clock.advance(73 * HOUR);
    const noticesBefore = app.mailer.notices.length;
    const { browser: later } = await accountWithCode(p, email);
    const newUrl = newPasskeyUrl(page);
    expect((await later.get(newUrl)).status).toBe(403);
    expect(app.mailer.notices.length).toBeGreaterThan(noticesBefore);
    void browser;
  });

  // ---- A sign-in by the project's own verification (custom) --------------------------------

  /** The project's backend confirms the request its verification page was sent (POST {issuer}/verification/confirm); answers where the person goes on. */
  async function confirmCustom(p: RelyingParty, customPage: BrowserResponse): Promise<string> {
    const href = /<a class="primary" href="([^"]+)">/.exec(customPage.text)?.[1]?.replaceAll('&amp;', '&');
    expect(href, customPage.text).toMatch(/^https:\/\/verify\.example\.com\/start\?/);
    const basic = Buffer.from(`${encodeURIComponent(p.keys.clientId)}:${encodeURIComponent(p.keys.clientSecret)}`).toString('base64');
    const res = await fetch(`${app.baseUrl}/p/${p.projectId}/verification/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${basic}` },
      body: JSON.stringify({ request: new URL(href as string).searchParams.get('request') }),
    });
    const body = (await res.json()) as { redirect_to: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body.redirect_to;
  }

  /** On a passkey page, "Verify instead": the project's own verification, confirmed; answers the response of coming back (not followed). */
  async function verifyInstead(browser: Browser, p: RelyingParty, identity: string, passkeyPage: BrowserResponse) {
    const custom = await last(browser, browser.request(codeInsteadAction(passkeyPage), { form: { email: identity, method: 'code' } }));
    expect(custom.text).toContain('Continue to verification');
    return browser.get(await confirmCustom(p, custom));
  }

  /**
   * A project whose people verify by its own backend (docs/decisions/0018, fullCustom), a webhook for
   * its recovery events, and a person who signed up there and created a passkey (nothing to tell then).
   */
  async function customSetUp(identityType: Project['identityType'], settings: Partial<Project> = {}) {
    // A global administrator: the verification URL is a globally unlocked field (spec §6).
    const admin = await signedInAccount(app, t.db, ['glb::*']);
    const p = await projectWithRelyingParty(app, admin);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), {
      ...(await getProject(admin, p.projectId)),
      identityType,
      verificationOptions: {
        method: 'fullCustom',
        url: 'https://verify.example.com/start',
        confirmationURL: '',
        customText: '',
        identityTypeLabel: '',
      },
      ...settings,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const hook = await admin.api.post(`/api/projects/${p.projectId}/webhooks`, {
      url: 'https://hooks.example.com/recovery',
      eventTypes: ['recovery.custom_sign_in', 'recovery.email_started', 'recovery.email_cancelled'],
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const identity = identityType === 'email' ? uniqueEmail('custom') : `member.${randomUUID().slice(0, 8)}`;
    const browser = new Browser();
    const { request, end: page1 } = await open(browser, p);
    const offer = await untilApp(browser, await browser.get(await confirmCustom(p, await submitEmail(browser, page1, identity))));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    await tokensFrom(
      p,
      await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } })),
      request.verifier,
    );
    expect(await activePasskeys(p.projectId, identity)).toEqual([expect.objectContaining({ registered_with: 'custom' })]);
    // A person who held no passkey when they verified is told nothing.
    expect(await eventsOf(p.projectId, 'recovery.custom_sign_in')).toEqual([]);
    expect(app.mailer.notices.filter((n) => n.email === identity)).toEqual([]);
    return { p, identity, passkey, name: (await getProject(admin, p.projectId)).name };
  }

  /** A returning person at the app: their identity, the passkey page, "Verify instead"; answers the page it stops at and the request. */
  async function signInByCustom(p: RelyingParty, identity: string, browser = new Browser()) {
    const { request, end: page1 } = await open(browser, p);
    const passkeyPage = await submitEmail(browser, page1, identity);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    return { request, after: await untilApp(browser, await verifyInstead(browser, p, identity, passkeyPage)) };
  }

  const recoveriesOf = async (projectId: string) =>
    (
      await t.db.query<{ id: string; not_before: Date; ended_how: string | null }>(
        'SELECT id, not_before, ended_how FROM email_recoveries WHERE project_id = $1 ORDER BY created_at, id',
        [projectId],
      )
    ).rows;

  it('tells a person who holds passkeys when they sign in by the project’s own verification: the notice to their address, the event, the webhook', async () => {
    const { p, identity, name } = await customSetUp('email');
    const browser = new Browser();
    const { request, after: offer } = await signInByCustom(p, identity, browser);
    // No delay: the offer of a passkey on this device follows as after an emailed code (0050); "Not now".
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    await tokensFrom(p, await untilApp(browser, await declinePasskey(browser, offer)), request.verifier);
    const notices = app.mailer.notices.filter((n) => n.email === identity);
    expect(notices).toEqual([expect.objectContaining({ notice: expect.objectContaining({ kind: 'custom_sign_in', language: 'en' }) })]);
    expect(notices[0]?.notice.subject).toBe(`New sign-in to your ${name} account without a passkey`);
    expect(notices[0]?.notice.text).toContain(`through ${name}'s own verification, not with one of your passkeys.`);
    expect(notices[0]?.notice.link).toBeUndefined();
    const events = await eventsOf(p.projectId, 'recovery.custom_sign_in');
    expect(events).toEqual([
      expect.objectContaining({
        event_status: 'success',
        user_id: await personOf(t.db, p.projectId, identity),
        details: expect.objectContaining({ notice: 'email' }),
      }),
    ]);
    expect(events[0]?.details).not.toHaveProperty('recoveryId');
    expect(await webhookTopics(p.projectId)).toEqual(['recovery.custom_sign_in']);
    expect(await recoveriesOf(p.projectId)).toEqual([]);
  });

  it('with a delay, the notice carries its end and “This wasn’t me”, which stops the recovery the sign-in started', async () => {
    const { p, identity } = await customSetUp('email', { emailRecoveryDelay: '72h' });
    const { request, after } = await signInByCustom(p, identity);
    // Signed in at once: no passkey is offered while the delay runs.
    await tokensFrom(p, after, request.verifier);
    const [recovery, ...others] = await recoveriesOf(p.projectId);
    expect(others).toEqual([]);
    expect(recovery?.not_before.getTime()).toBe(app.clock.now().getTime() + 72 * HOUR);
    expect(await eventsOf(p.projectId, 'recovery.custom_sign_in')).toEqual([
      expect.objectContaining({
        details: expect.objectContaining({ notice: 'email', recoveryId: recovery?.id, notBefore: recovery?.not_before.toISOString() }),
      }),
    ]);
    // One event a sign-in: not also recovery.email_started.
    expect(await webhookTopics(p.projectId)).toEqual(['recovery.custom_sign_in']);
    const notice = app.mailer.notices.filter((n) => n.email === identity).at(-1)?.notice;
    expect(notice).toMatchObject({ kind: 'custom_sign_in' });
    expect(notice?.link).toMatch(new RegExp(`^${accountUrl(p)}/recovery/stop\\?t=`));
    expect(notice?.text).toContain('A new passkey can be added to your account from ');
    expect(notice?.text).toContain(`This wasn't me: ${notice?.link}`);
    const asked = await new Browser().get(notice?.link as string);
    const stopped = await new Browser().request(formNamed(asked, 'Stop the recovery').action, { form: formNamed(asked, 'Stop the recovery').fields });
    expect(stopped.status, stopped.text).toBe(200);
    expect(await recoveriesOf(p.projectId)).toEqual([expect.objectContaining({ ended_how: 'cancelled' })]);
    expect(await eventsOf(p.projectId, 'recovery.email_cancelled')).toEqual([
      expect.objectContaining({ details: expect.objectContaining({ recoveryId: recovery?.id }) }),
    ]);
    expect((await webhookTopics(p.projectId)).sort()).toEqual(['recovery.custom_sign_in', 'recovery.email_cancelled']);
  });

  it('a user id with no address: no mail, the event and webhook only; a new passkey on the account page waits the delay, then is allowed', async () => {
    const { p, identity } = await customSetUp('alphanumeric', { emailRecoveryDelay: '24h' });
    const mailsBefore = app.mailer.notices.length;
    const { request, after } = await signInByCustom(p, identity);
    await tokensFrom(p, after, request.verifier);
    const [recovery] = await recoveriesOf(p.projectId);
    expect(recovery?.not_before.getTime()).toBe(app.clock.now().getTime() + 24 * HOUR);
    expect(await eventsOf(p.projectId, 'recovery.custom_sign_in')).toEqual([
      expect.objectContaining({
        event_status: 'success',
        user_id: await personOf(t.db, p.projectId, identity),
        details: expect.objectContaining({ notice: 'none', recoveryId: recovery?.id }),
      }),
    ]);
    expect(await webhookTopics(p.projectId)).toEqual(['recovery.custom_sign_in']);

    /** The account page, signed in by "Verify instead" (no passkey offered while a delay runs). */
    async function accountByCustom(browser = new Browser()) {
      const passkeyPage = await submitEmail(browser, await last(browser, browser.get(accountUrl(p))), identity);
      const page = await last(browser, verifyInstead(browser, p, identity, passkeyPage));
      expect(page.url, page.text).toBe(accountUrl(p));
      return { browser, page };
    }
    const { browser, page } = await accountByCustom();
    const newUrl = newPasskeyUrl(page);
    const waiting = await browser.get(newUrl);
    expect(waiting.status).toBe(403);
    expect(waiting.text).toContain('A new passkey has to wait');
    expect(waiting.text).toContain('You signed in without one of your passkeys.');
    // There is no address: the page does not say a mail was sent, and none was.
    expect(waiting.text).not.toContain('We emailed you');
    expect(app.mailer.notices.length).toBe(mailsBefore);
    const posted = await browser.request(newUrl, { form: { csrf: formNamed(page, 'Create recovery codes').fields.csrf as string, response: '{}' } });
    expect(posted.status).toBe(403);
    expect(await activePasskeys(p.projectId, identity)).toHaveLength(1);
    // Past the delay, a fresh sign-in (what adding a passkey asks) may add it; the recoveries end, used.
    app.clock.advance(24 * HOUR + 60_000);
    const { browser: later } = await accountByCustom();
    const added = await createOnAccountPage(later, newUrl);
    expect(added.text).toContain('The passkey was created.');
    expect(await activePasskeys(p.projectId, identity)).toHaveLength(2);
    expect((await recoveriesOf(p.projectId)).map((r) => r.ended_how)).toEqual(['used', 'used', 'used']);
    expect(app.mailer.notices.length).toBe(mailsBefore);
  });

  const userPath = (projectId: string, user: string) => `/api${buildPath(endUsersApi.getEndUser.path, { project: projectId, user })}`;
  const linkPath = (projectId: string, user: string) => `/api${buildPath(endUsersApi.createReenrollmentLink.path, { project: projectId, user })}`;
  const linkRows = async (projectId: string) =>
    (
      await t.db.query<{ token_hash: string; used_at: Date | null }>('SELECT token_hash, used_at FROM reenrollment_links WHERE project_id = $1', [
        projectId,
      ])
    ).rows;

  /** Opens a re-enrollment link in a fresh browser and creates the passkey it offers; answers the last page. */
  async function reenroll(url: string, browser = new Browser()) {
    const page = await browser.get(url);
    if (page.status !== 200) return page;
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(page.text), app.baseUrl);
    const done = await browser.request(formAction(page), {
      form: { ...formNamed(page, 'Create a passkey').fields, response: JSON.stringify(response) },
    });
    return Object.assign(done, { passkey });
  }

  it('gives an administrator a one-time re-enrollment link: shown once, kept hashed, a passkey on the device that opens it, audited; once only', async () => {
    const { admin, p, email, passkey } = await setUp();
    await t.db.query('UPDATE devices SET revoked = true WHERE project_id = $1 AND id = $2', [p.projectId, passkey.id]);
    const userId = (await personOf(t.db, p.projectId, email)) ?? '';
    const created = await admin.api.post<ReenrollmentLink>(linkPath(p.projectId, userId));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { url, expiresAt } = created.body;
    expect(url).toMatch(new RegExp(`^${accountUrl(p)}/reenroll\\?t=`));
    expect(new Date(expiresAt).getTime()).toBe(app.clock.now().getTime() + 24 * HOUR);
    const token = new URL(url).searchParams.get('t') as string;
    expect((await linkRows(p.projectId)).map((r) => r.token_hash)).not.toContain(token);
    expect(await eventsOf(p.projectId, 'recovery.link_created')).toHaveLength(1);
    // Opened: the page asks for a passkey for this person, with no other proof.
    const done = await reenroll(url);
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain('Your new passkey is ready.');
    expect(await activePasskeys(p.projectId, email)).toEqual([expect.objectContaining({ registered_with: 'reenrollment_link' })]);
    expect((await eventsOf(p.projectId, 'recovery.link_used')).at(-1)).toMatchObject({ event_status: 'success', user_id: userId });
    expect((await webhookTopics(p.projectId)).sort()).toEqual(['recovery.link_created', 'recovery.link_used']);
    // The new passkey signs in.
    const { passkey: created2 } = done as typeof done & { passkey: Passkey };
    await accountWithPasskey(p, email, created2);
    // Once only: opened again, or posted again, it is gone.
    const again = await new Browser().get(url);
    expect(again.status).toBe(404);
    expect(again.text).toContain('This link was used already, has expired or is not valid.');
    expect(await activePasskeys(p.projectId, email)).toHaveLength(1);
    // The user's page shows the recovery state.
    const detail = await admin.api.get<EndUserDetail>(userPath(p.projectId, userId));
    expect(detail.body.recovery).toEqual({
      passkeys: 1,
      syncedPasskeys: 0,
      recoveryCodesLeft: null,
      recoveryCodesCreatedAt: null,
      emailRecoveryUntil: null,
    });
    // Backed up by its authenticator (the BS flag last seen): counted as synced.
    await t.db.query('UPDATE devices SET backed_up = true WHERE project_id = $1 AND user_id = $2', [p.projectId, userId]);
    expect((await admin.api.get<EndUserDetail>(userPath(p.projectId, userId))).body.recovery).toMatchObject({ passkeys: 1, syncedPasskeys: 1 });
  });

  it('a re-enrollment link expires; a link for a blocked user, an unknown user or a bad id is refused, nothing stored', async () => {
    const { admin, p, email } = await setUp({ emailRecoveryDelay: '24h' });
    const userId = (await personOf(t.db, p.projectId, email)) ?? '';
    const { status, body } = await admin.api.post<ReenrollmentLink>(linkPath(p.projectId, userId));
    expect(status, JSON.stringify(body)).toBe(200);
    // A second link, opened in time but posted after it expired.
    const { body: second } = await admin.api.post<ReenrollmentLink>(linkPath(p.projectId, userId));
    const browser = new Browser();
    const page = await browser.get(second.url);
    expect(page.status).toBe(200);
    app.clock.advance(24 * HOUR + 1000);
    expect((await new Browser().get(body.url)).status).toBe(404);
    const { response } = createPasskey(pageOptions<CreationOptions>(page.text), app.baseUrl);
    const late = await browser.request(formAction(page), {
      form: { ...formNamed(page, 'Create a passkey').fields, response: JSON.stringify(response) },
    });
    expect(late.status).toBe(404);
    expect(await activePasskeys(p.projectId, email)).toHaveLength(1);
    // The administrator's console session has ended meanwhile: they sign in again.
    const again = await signedInAccount(app, t.db, [`cst:${p.projectId}:revocation`]);
    const before = (await linkRows(p.projectId)).length;
    expect((await again.api.post(linkPath(p.projectId, 'nosuchuser'))).status).toBe(404);
    expect((await again.api.post(linkPath(p.projectId, 'x'.repeat(101)))).status).toBe(400);
    expect((await again.api.post(`/api/projects/${p.projectId}/users/${userId}/block`)).status).toBe(200);
    expect((await again.api.post(linkPath(p.projectId, userId))).status).toBe(409);
    expect((await linkRows(p.projectId)).length).toBe(before);
    // The recovery state of a person with codes and an email recovery under way.
    expect((await again.api.post(`/api/projects/${p.projectId}/users/${userId}/unblock`)).status).toBe(200);
    const { passkey } = await newUserWithPasskey(new Browser(), p, 'state');
    void passkey;
    await accountWithCode(p, email);
    const detail = await again.api.get<EndUserDetail>(userPath(p.projectId, userId));
    expect(detail.body.recovery).toMatchObject({ passkeys: 1, recoveryCodesLeft: null });
    expect(detail.body.recovery.emailRecoveryUntil).toBe(new Date(app.clock.now().getTime() + 24 * HOUR).toISOString());
  });
});
