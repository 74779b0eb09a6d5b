import { SESSION_COOKIE } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { startTestApp, storedSessionRef, uniqueEmail, useTestApp } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { MINUTE } from './support/fakes.ts';
import { emailAction, formAction, linkHref, openSignIn, postLogin, signInThroughProvider, submitCode, submitEmail } from './support/sign-in.ts';

/** The error shown on the code page, if any. */
function pageError(page: BrowserResponse): string | null {
  return /<p id="code-error" class="error" role="alert">([^<]*)<\/p>/.exec(page.text)?.[1] ?? null;
}

describeEachDatabase('sign-in through the built-in provider', (t) => {
  const app = useTestApp(t, { listen: true });

  it('goes authurl → provider pages → emailed code → /login → POST /api/login → GET /api/account; the first account owns everything', async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser, '/project/abc/settings');
    expect(emailPage.status).toBe(200);
    expect(emailPage.url).toMatch(new RegExp(`^${app.baseUrl}/idp/interaction/`));
    expect(emailPage.headers.get('content-security-policy')).toContain("style-src 'self';");
    expect(emailPage.text).toContain('<h1>Sign in to Latchkey</h1>');
    expect(emailPage.text).toContain('<label for="email">Email</label>');
    expect(emailPage.text).toMatch(/<button[^>]*>Continue<\/button>/);
    expect(emailPage.text).toMatch(/<a href="[^"]+\/cancel">Cancel<\/a>/);

    const codePage = await submitEmail(browser, emailPage, '  First.Owner@Example.test ');
    expect(codePage.status).toBe(200);
    expect(codePage.text).toContain('We sent a 6-digit code to <strong>first.owner@example.test</strong>');
    expect(codePage.text).toContain('<label for="code">Code</label>');
    expect(codePage.text).toMatch(/<button[^>]*>Sign in<\/button>/);
    expect(codePage.text).toContain('>Use a different email</a>');
    const code = app.mailer.lastCode('first.owner@example.test');
    expect(code).toMatch(/^\d{6}$/);

    const back = await submitCode(app, browser, codePage, code);
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));

    const login = await postLogin(app, browser, back.location as string);
    expect(login.status, login.text).toBe(200);
    expect(login.json()).toEqual({ next: '/project/abc/settings' });
    expect(browser.cookie(SESSION_COOKIE)).toBeTruthy();
    expect(browser.cookie('XSRF-TOKEN')).toBeTruthy();

    const account = await browser.get(`${app.baseUrl}/api/account`);
    expect(account.status).toBe(200);
    expect(account.json()).toMatchObject({ email: 'first.owner@example.test', permissions: ['glb::*'] });
  });

  it('gives a later account no permission at all', async () => {
    const browser = new Browser();
    const email = uniqueEmail('second');
    const login = await signInThroughProvider(app, browser, email);
    expect(login.status, login.text).toBe(200);
    const account = await browser.get(`${app.baseUrl}/api/account`);
    expect(account.json()).toMatchObject({ email, permissions: [] });
  });

  it('refuses the 6th try of a code, even the right one, after 5 wrong ones', async () => {
    const browser = new Browser();
    const email = uniqueEmail('guesser');
    const codePage = await submitEmail(browser, await openSignIn(app, browser), email);
    const right = app.mailer.lastCode(email);
    const wrong = right === '000000' ? '111111' : '000000';
    let page: BrowserResponse;
    for (let i = 1; i <= 5; i++) {
      page = await submitCode(app, browser, codePage, wrong);
      expect(page.status).toBe(400);
      expect(pageError(page)).toBe(i < 5 ? 'That code is not right' : 'That code is not right. Ask for a new one.');
    }
    page = await submitCode(app, browser, codePage, right);
    expect(page.status).toBe(400);
    expect(pageError(page)).toBe('Too many wrong codes. Ask for a new one.');

    // A new code ("Send a new code", the second form) starts afresh.
    const again = (await browser.follow(await browser.request(formAction(page, 1), { form: { email, resend: '1' } }))).at(-1) as BrowserResponse;
    const back = await submitCode(app, browser, again, app.mailer.lastCode(email));
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
  });

  it('allows 20 tries per address per hour, however many codes it is sent; then the right code waits an hour', async () => {
    const browser = new Browser();
    const email = uniqueEmail('patient-guesser');
    let page = await submitEmail(browser, await openSignIn(app, browser), email);
    const resend = async (from: BrowserResponse) =>
      (await browser.follow(await browser.request(formAction(from, 1), { form: { email, resend: '1' } }))).at(-1) as BrowserResponse;
    for (let code = 1; code <= 4; code++) {
      const right = app.mailer.lastCode(email);
      const wrong = right === '000000' ? '111111' : '000000';
      for (let i = 0; i < 5; i++) page = await submitCode(app, browser, page, wrong);
      page = await resend(page);
    }
    page = await submitCode(app, browser, page, app.mailer.lastCode(email));
    expect(page.status).toBe(400);
    expect(pageError(page)).toBe('Too many tries for this address. Wait an hour, then ask for a new code.');

    app.clock.advance(61 * MINUTE);
    page = await resend(page);
    const back = await submitCode(app, browser, page, app.mailer.lastCode(email));
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
  });

  it('lets a code expire after 10 minutes (injected clock)', async () => {
    const browser = new Browser();
    const email = uniqueEmail('slow');
    const codePage = await submitEmail(browser, await openSignIn(app, browser), email);
    app.clock.advance(10 * MINUTE);
    const page = await submitCode(app, browser, codePage, app.mailer.lastCode(email));
    expect(page.status).toBe(400);
    expect(pageError(page)).toBe('That code has expired. Ask for a new one.');
  });

  it('takes a code a little under 10 minutes old', async () => {
    const browser = new Browser();
    const email = uniqueEmail('prompt');
    const codePage = await submitEmail(browser, await openSignIn(app, browser), email);
    app.clock.advance(10 * MINUTE - 1000);
    const back = await submitCode(app, browser, codePage, app.mailer.lastCode(email));
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
  });

  it('uses a code once, and a new code replaces the old one', async () => {
    const browser = new Browser();
    const email = uniqueEmail('once');
    const emailPage = await openSignIn(app, browser);
    const codePage = await submitEmail(browser, emailPage, email);
    const first = app.mailer.lastCode(email);

    // "Send a new code" (the second form on page 2) replaces the first code.
    const resent = await browser.follow(await browser.request(formAction(codePage, 1), { form: { email, resend: '1' } }));
    const codePage2 = resent.at(-1) as BrowserResponse;
    expect(codePage2.text).toContain('We sent a new code');
    const second = app.mailer.lastCode(email);
    expect(app.mailer.count(email)).toBe(2);
    if (first !== second) {
      const old = await submitCode(app, browser, codePage2, first);
      expect(pageError(old)).toBe('That code is not right');
    }
    const back = await submitCode(app, browser, codePage2, second);
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));

    // Replaying the same code on the same interaction does not sign in again.
    const replay = await browser.request(formAction(codePage2), { form: { code: second } });
    expect(replay.status).toBe(400);
    expect(replay.location).toBeNull();
  });

  it('limits how many codes one address is sent from one client address: 5 per 10 minutes', async () => {
    const browser = new Browser();
    const email = uniqueEmail('spam');
    for (let i = 0; i < 5; i++) {
      const page = await submitEmail(browser, await openSignIn(app, browser), email);
      expect(page.status).toBe(200);
    }
    const emailPage = await openSignIn(app, browser);
    const refused = await browser.request(emailAction(emailPage), { form: { email } });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many codes were requested for this address');
    expect(app.mailer.count(email)).toBe(5);
    app.clock.advance(10 * MINUTE);
    const later = await submitEmail(browser, emailPage, email);
    expect(later.status).toBe(200);
    expect(app.mailer.count(email)).toBe(6);
  });

  it('lets one provider interaction mail at most 3 addresses and 5 codes', async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser);
    const addresses = [uniqueEmail('first'), uniqueEmail('second'), uniqueEmail('third'), uniqueEmail('fourth')];
    for (const email of addresses.slice(0, 3)) expect((await submitEmail(browser, emailPage, email)).status).toBe(200);
    const fourth = await browser.request(emailAction(emailPage), { form: { email: addresses[3] as string } });
    expect(fourth.status).toBe(429);
    expect(fourth.text).toContain('Too many codes were requested in this sign-in. Start again from the console.');
    expect(app.mailer.count(addresses[3] as string)).toBe(0);

    // Resending to the address of the moment is not a new address, but still a code.
    const third = addresses[2] as string;
    for (let i = 0; i < 2; i++) expect((await submitEmail(browser, emailPage, third)).status).toBe(200);
    expect((await browser.request(emailAction(emailPage), { form: { email: third } })).status).toBe(429);
    expect(app.mailer.count(third)).toBe(3);

    // A new sign-in from the console starts afresh.
    expect((await submitEmail(browser, await openSignIn(app, browser), addresses[3] as string)).status).toBe(200);
  });

  it('limits the codes one client address is sent, whatever the addresses: 20 per 10 minutes', async () => {
    const browser = new Browser();
    for (let i = 0; i < 20; i++) {
      expect((await submitEmail(browser, await openSignIn(app, browser), uniqueEmail('sprayed'))).status).toBe(200);
    }
    const email = uniqueEmail('sprayed');
    const refused = await browser.request(emailAction(await openSignIn(app, browser)), { form: { email } });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many codes were requested from your network');
    expect(app.mailer.count(email)).toBe(0);
    // Another client is not held back.
    const other = new Browser();
    expect((await submitEmail(other, await openSignIn(app, other), email)).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: another address in the same /64 shares the limit, another /64 does not', async () => {
    const first = new Browser({ clientIp: '2001:db8:64:1::a' });
    for (let i = 0; i < 20; i++) {
      expect((await submitEmail(first, await openSignIn(app, first), uniqueEmail('v6'))).status).toBe(200);
    }
    const email = uniqueEmail('v6');
    const sameNetwork = new Browser({ clientIp: '2001:db8:64:1:ffff:ffff:ffff:fffe' });
    const refused = await sameNetwork.request(emailAction(await openSignIn(app, sameNetwork)), { form: { email } });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many codes were requested from your network');
    expect(app.mailer.count(email)).toBe(0);
    const otherNetwork = new Browser({ clientIp: '2001:db8:64:2::a' });
    expect((await submitEmail(otherNetwork, await openSignIn(app, otherNetwork), email)).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 client as its IPv4 address', async () => {
    const email = uniqueEmail('mapped');
    const v4 = new Browser({ clientIp: '198.51.100.64' });
    for (let i = 0; i < 5; i++) expect((await submitEmail(v4, await openSignIn(app, v4), email)).status).toBe(200);
    const mapped = new Browser({ clientIp: '::ffff:198.51.100.64' });
    const refused = await mapped.request(emailAction(await openSignIn(app, mapped)), { form: { email } });
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('Too many codes were requested for this address');
    expect(app.mailer.count(email)).toBe(5);
  });

  it('keeps a code with its interaction: someone asking for the same address elsewhere does not end it', async () => {
    const owner = new Browser();
    const stranger = new Browser();
    const email = uniqueEmail('owner');
    const codePage = await submitEmail(owner, await openSignIn(app, owner), email);
    const ownersCode = app.mailer.lastCode(email);
    expect((await submitEmail(stranger, await openSignIn(app, stranger), email)).status).toBe(200);
    expect(app.mailer.count(email)).toBe(2);
    const strangersCode = app.mailer.lastCode(email);
    // The code mailed for the stranger's interaction does not open the owner's.
    if (strangersCode !== ownersCode) expect(pageError(await submitCode(app, owner, codePage, strangersCode))).toBe('That code is not right');
    const back = await submitCode(app, owner, codePage, ownersCode);
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
  });

  it('does not let a stranger lock the owner out: the limits per address count per client address', async () => {
    const stranger = new Browser();
    const email = uniqueEmail('target');
    // The stranger asks for every code they may, and guesses until told to wait.
    let page = await submitEmail(stranger, await openSignIn(app, stranger), email);
    let refusals = 0;
    for (let i = 0; i < 30 && refusals === 0; i++) {
      page = await submitCode(app, stranger, page, '000000');
      if (pageError(page)?.startsWith('Too many tries')) refusals += 1;
      if (pageError(page) === 'Too many wrong codes. Ask for a new one.' || pageError(page) === 'That code is not right. Ask for a new one.') {
        page = (await stranger.follow(await stranger.request(formAction(page, 1), { form: { email, resend: '1' } }))).at(-1) as BrowserResponse;
      }
    }
    expect(refusals).toBe(1);
    for (let i = 0; i < 5; i++) await stranger.request(emailAction(await openSignIn(app, stranger)), { form: { email } });
    const spent = await stranger.request(emailAction(await openSignIn(app, stranger)), { form: { email } });
    expect(spent.status).toBe(429);

    // The owner, from their own address, is sent a code and signs in.
    const owner = new Browser();
    const login = await signInThroughProvider(app, owner, email);
    expect(login.status, login.text).toBe(200);
  });

  it('writes nothing to the database for GET /api/authurl, which anyone may call', async () => {
    const counts = async () => {
      const { rows } = await t.db.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
      );
      const result: Record<string, number> = {};
      for (const { table_name } of rows) {
        const { rows: n } = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table_name}"`);
        result[table_name] = n[0]?.n ?? 0;
      }
      return result;
    };
    const before = await counts();
    const browser = new Browser();
    for (let i = 0; i < 25; i++) {
      const res = await browser.get(`${app.baseUrl}/api/authurl?redirectURL=${encodeURIComponent(`${app.baseUrl}/login`)}&state_next=/x${i}`);
      expect(res.status).toBe(200);
    }
    expect(await counts()).toEqual(before);
    // The browser's cookie keeps its latest sign-ins only, sealed.
    expect((browser.cookie('lk_login') ?? '').length).toBeLessThan(3600);
    expect(browser.cookie('lk_login')).not.toContain('/x24');
  });

  it('says so when the code cannot be mailed, and a later try works', async () => {
    const browser = new Browser();
    const email = uniqueEmail('mail-down');
    const emailPage = await openSignIn(app, browser);
    app.mailer.failing = true;
    try {
      const failed = await browser.request(emailAction(emailPage), { form: { email } });
      expect(failed.status).toBe(503);
      expect(failed.text).toContain('We could not send the code. Try again in a moment.');
    } finally {
      app.mailer.failing = false;
    }
    const codePage = await submitEmail(browser, emailPage, email);
    expect(codePage.status).toBe(200);
    expect(app.mailer.count(email)).toBe(1);
  });

  it('rejects a malformed email and a malformed code without sending or counting anything', async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser);
    const bad = await browser.request(emailAction(emailPage), { form: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Enter a valid email address');
    expect(bad.text).toContain('aria-invalid="true"');
    expect(app.mailer.sent.some((m) => m.email === 'not-an-email')).toBe(false);

    const email = uniqueEmail('typo');
    const codePage = await submitEmail(browser, emailPage, email);
    const malformed = await submitCode(app, browser, codePage, '12ab');
    expect(malformed.status).toBe(400);
    expect(pageError(malformed)).toBe('Enter the 6-digit code from the email');
    // Not counted as a try: the right code still works after five malformed ones.
    for (let i = 0; i < 5; i++) await submitCode(app, browser, codePage, 'x');
    const back = await submitCode(app, browser, codePage, app.mailer.lastCode(email));
    expect(back.location).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
  });

  it('"Cancel" returns to /login with error=access_denied', async () => {
    const browser = new Browser();
    const emailPage = await openSignIn(app, browser);
    const hops = await browser.follow(await browser.get(linkHref(emailPage, 'Cancel')), (url) => url.startsWith(`${app.baseUrl}/login`));
    const last = hops.at(-1) as BrowserResponse;
    const callback = new URL(last.location as string);
    expect(callback.pathname).toBe('/login');
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('binds the attempt to the browser that started it and to its state, once', async () => {
    const browser = new Browser();
    const email = uniqueEmail('bound');
    const codePage = await submitEmail(browser, await openSignIn(app, browser), email);
    const back = await submitCode(app, browser, codePage, app.mailer.lastCode(email));
    const callback = back.location as string;

    // Another browser (no lk_login cookie) cannot finish this sign-in.
    const stranger = await postLogin(app, new Browser(), callback);
    expect(stranger.status).toBe(400);
    expect(stranger.json()).toMatchObject({ error: 'login_failed' });

    // A wrong state fails too.
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged-state');
    const wrongState = await postLogin(app, browser, forged.href);
    expect(wrongState.json()).toMatchObject({ error: 'login_failed' });

    const ok = await postLogin(app, browser, callback);
    expect(ok.status, ok.text).toBe(200);
    const replay = await postLogin(app, browser, callback);
    expect(replay.status).toBe(400);
    expect(replay.json()).toMatchObject({ error: 'login_failed' });
  });

  it('lets a sign-in attempt expire after 15 minutes', async () => {
    const browser = new Browser();
    const email = uniqueEmail('late');
    const codePage = await submitEmail(browser, await openSignIn(app, browser), email);
    const back = await submitCode(app, browser, codePage, app.mailer.lastCode(email));
    app.clock.advance(15 * MINUTE);
    const login = await postLogin(app, browser, back.location as string);
    expect(login.status).toBe(400);
    expect(login.json()).toMatchObject({ error: 'login_failed' });
  });

  it('accepts only {PUBLIC_URL}/login as redirectURL and keeps only a local next path', async () => {
    const browser = new Browser();
    const wrong = await browser.get(`${app.baseUrl}/api/authurl?redirectURL=${encodeURIComponent('https://evil.example/login')}`);
    expect(wrong.status).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'validation_failed', issues: [{ field: 'redirectURL' }] });

    const login = await signInThroughProvider(app, browser, uniqueEmail('next'), '//evil.example/x');
    expect(login.json()).toEqual({ next: null });
    // Browsers drop tabs and newlines: /\t/evil.example would become //evil.example.
    for (const next of ['/\t/evil.example', '/\n/evil.example', '/.//evil.example', '/\\evil.example']) {
      const query = new URLSearchParams({ redirectURL: `${app.baseUrl}/login`, state_next: next });
      const asked = await new Browser().get(`${app.baseUrl}/api/authurl?${query}`);
      // Refused outright (the input guard turns control characters away), or kept out of `next`.
      if (asked.status === 400) continue;
      const open = await signInThroughProvider(app, new Browser(), uniqueEmail('next'), next);
      expect(open.json(), JSON.stringify(next)).toEqual({ next: null });
    }
    // A same-origin path comes back as a browser would read it.
    const normalised = await signInThroughProvider(app, new Browser(), uniqueEmail('next'), '/project/a/../b/settings');
    expect(normalised.json()).toEqual({ next: '/project/b/settings' });
  });

  it('remembers the browser at the provider, and logout ends both sessions', async () => {
    const browser = new Browser();
    const email = uniqueEmail('returning');
    expect((await signInThroughProvider(app, browser, email)).status).toBe(200);

    // Signed in at the provider: a new sign-in goes straight back to /login.
    const res = await browser.get(`${app.baseUrl}/api/authurl?redirectURL=${encodeURIComponent(`${app.baseUrl}/login`)}`);
    const hops = await browser.follow(await browser.get(res.json<{ authUrl: string }>().authUrl), (url) => url.startsWith(`${app.baseUrl}/login`));
    const callback = (hops.at(-1) as BrowserResponse).location as string;
    expect(callback).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
    const firstSession = browser.cookie(SESSION_COOKIE) as string;
    expect((await postLogin(app, browser, callback)).status).toBe(200);
    // Signing in again replaces the browser's previous session.
    expect(browser.cookie(SESSION_COOKIE)).not.toBe(firstSession);
    const { rows } = await t.db.query('SELECT 1 FROM sessions WHERE id_hash = $1', [storedSessionRef(app, firstSession)]);
    expect(rows).toEqual([]);

    const logout = await browser.get(`${app.baseUrl}/api/logout`);
    expect(logout.status).toBe(200);
    // The provider's session ended on the server: the browser just goes home.
    expect(logout.json()).toEqual({ redirectUrl: `${app.baseUrl}/` });
    expect((await browser.get(`${app.baseUrl}/api/account`)).status).toBe(401);

    // Signed out at the provider too: the email page shows again, no instant redirect to /login.
    const page = await openSignIn(app, browser);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<label for="email">Email</label>');
  });
});

describeEachDatabase('registration', (t) => {
  it('makes the very first account the owner (glb::*), later ones get nothing; REGISTRATION=closed declines unknown emails', async () => {
    const open = await startTestApp(t.db, { listen: true });
    try {
      const owner = new Browser();
      expect((await signInThroughProvider(open, owner, 'owner@example.test')).status).toBe(200);
      expect((await owner.get(`${open.baseUrl}/api/account`)).json()).toMatchObject({ permissions: ['glb::*'] });
      const member = new Browser();
      expect((await signInThroughProvider(open, member, 'member@example.test')).status).toBe(200);
      expect((await member.get(`${open.baseUrl}/api/account`)).json()).toMatchObject({ permissions: [] });
    } finally {
      await open.close();
    }

    const closed = await startTestApp(t.db, { listen: true, env: { REGISTRATION: 'closed' } });
    try {
      const config = await new Browser().get(`${closed.baseUrl}/api/config`);
      expect(config.json()).toMatchObject({ registration: 'closed' });

      const stranger = await signInThroughProvider(closed, new Browser(), 'stranger@example.test');
      expect(stranger.status).toBe(403);
      expect(stranger.json()).toEqual({ error: 'registration_disabled', message: 'Registration is disabled' });

      const known = await signInThroughProvider(closed, new Browser(), 'member@example.test');
      expect(known.status).toBe(200);
    } finally {
      await closed.close();
    }
  });

  it('declines an inactive account', async () => {
    const app = await startTestApp(t.db, { listen: true });
    try {
      await t.db.query("UPDATE accounts SET active = false WHERE email = 'member@example.test'");
      const login = await signInThroughProvider(app, new Browser(), 'member@example.test');
      expect(login.status).toBe(403);
      expect(login.json()).toMatchObject({ error: 'forbidden' });
    } finally {
      await app.close();
    }
  });
});

describe('sign-in pages', () => {
  it('keep labels tied to their inputs', async () => {
    const { emailPage, codePage } = await import('../src/oidc/pages/views.ts');
    const links = { emailAction: '/e', codeAction: '/c', emailPage: '/p', cancel: '/x' };
    expect(emailPage(links)).toMatch(/<label for="email">Email<\/label>\s*<input id="email"/);
    expect(codePage(links, { email: 'a@b.c' })).toMatch(/<label for="code">Code<\/label>\s*<input id="code"/);
    expect(emailPage(links, { email: '"><script>' })).not.toContain('"><script>');
  });
});
