import { expect, it } from 'vitest';
import { api, GLOBAL_WILDCARD } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createProject } from './support/fixtures.ts';
import {
  codeInsteadAction,
  formAction,
  isPasskeyOffer,
  openSignIn,
  postLogin,
  signInThroughProvider,
  submitCode,
  submitEmail,
} from './support/sign-in.ts';

// docs/decisions/0027: the console's issuer is an issuer like every project's, so an administrator
// gets what a project's end user gets: a passkey offered after the emailed code, then used alone.
describeWithDatabase("administrators' passkeys at the console's issuer", (d) => {
  const t = useTestApp(d, { listen: true });

  const toLogin = (url: string) => url.startsWith(`${t.baseUrl}/login`);
  const until = async (browser: Browser, response: BrowserResponse) => (await browser.follow(response, toLogin)).at(-1) as BrowserResponse;

  /** The console's sign-in, signed in: POST /api/login answers 200 and the account is `email`'s. */
  async function expectSignedInAs(browser: Browser, back: BrowserResponse, email: string): Promise<void> {
    expect(back.location ?? '', back.text).toMatch(new RegExp(`^${t.baseUrl}/login\\?code=`));
    const login = await postLogin(t, browser, back.location as string);
    expect(login.status, login.text).toBe(200);
    const account = await browser.get(`${t.baseUrl}/api/account`);
    expect(account.json<{ email: string }>().email).toBe(email);
  }

  /** An administrator's account, made by a first sign-in (an address that is no account yet is offered no passkey). */
  async function administrator(label: string): Promise<string> {
    const email = uniqueEmail(label);
    const login = await signInThroughProvider(t, new Browser(), email);
    expect(login.status, login.text).toBe(200);
    return email;
  }

  /** A sign-in by emailed code, answering the passkey offer by creating one. */
  async function signInCreatingPasskey(email: string): Promise<Passkey> {
    const browser = new Browser();
    const codePage = await submitEmail(browser, await openSignIn(t, browser), email);
    const offer = await submitCode(t, browser, codePage, t.mailer.lastCode(email), 'keep');
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    expect(offer.url).toMatch(new RegExp(`^${t.baseUrl}/idp/interaction/[^/]+/register$`));
    const options = pageOptions<CreationOptions>(offer.text);
    expect(options.rp.id).toBe(new URL(t.baseUrl).hostname);
    // The WebAuthn user handle names nobody (WebAuthn §5.4.3) and fits its 64 bytes: a keyed hash, not the address.
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect(Buffer.from(options.user.id, 'base64url').toString('utf8')).not.toContain(email);
    const { passkey, response } = createPasskey(options, t.baseUrl);
    const back = await until(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    await expectSignedInAs(browser, back, email);
    return passkey;
  }

  /** A later sign-in: the address, then the passkey page (no code mailed). */
  async function passkeyPage(browser: Browser, email: string): Promise<BrowserResponse> {
    const page = await submitEmail(browser, await openSignIn(t, browser), email);
    expect(page.status, page.text).toBe(200);
    expect(page.text).toContain('Sign in with a passkey');
    return page;
  }

  it('offers a passkey after the emailed code; the next sign-in takes the passkey alone, with no code mailed', async () => {
    const email = await administrator('admin-passkey');
    const passkey = await signInCreatingPasskey(email);
    // counter is a bigint: pg answers it as text, PGlite as a number; either way it is 0.
    const { rows } = await d.db.query<{ account: string; counter: string | number }>('SELECT account, counter FROM console_passkeys WHERE id = $1', [
      passkey.id,
    ]);
    expect(rows.map((r) => ({ account: r.account, counter: Number(r.counter) }))).toEqual([{ account: email, counter: 0 }]);

    const codes = t.mailer.count(email);
    const browser = new Browser();
    const page = await passkeyPage(browser, email);
    const response = usePasskey(passkey, pageOptions<RequestOptions>(page.text), t.baseUrl);
    const back = await until(browser, await browser.request(formAction(page), { form: { response: JSON.stringify(response) } }));
    await expectSignedInAs(browser, back, email);
    expect(t.mailer.count(email)).toBe(codes);
    const used = await d.db.query<{ counter: string }>('SELECT counter FROM console_passkeys WHERE id = $1', [passkey.id]);
    expect(Number(used.rows[0]?.counter)).toBe(1);
  });

  it("refuses another administrator's passkey, and still signs in by emailed code on request", async () => {
    const mine = await administrator('admin-a');
    const theirs = await administrator('admin-b');
    await signInCreatingPasskey(mine);
    const theirPasskey = await signInCreatingPasskey(theirs);

    const browser = new Browser();
    const page = await passkeyPage(browser, mine);
    // Their passkey answering my ceremony: not one of mine, so the page asks again.
    const forged = usePasskey(theirPasskey, pageOptions<RequestOptions>(page.text), t.baseUrl);
    const refused = await until(browser, await browser.request(formAction(page), { form: { response: JSON.stringify(forged) } }));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Sign in with a passkey');

    const codePage = await until(browser, await browser.request(codeInsteadAction(refused), { form: { email: mine, method: 'code' } }));
    expect(codePage.text).toContain('We sent a 6-digit code to');
    // A passkey exists: no offer after the code this time.
    const back = await submitCode(t, browser, codePage, t.mailer.lastCode(mine), 'keep');
    await expectSignedInAs(browser, back, mine);
  });

  it('"Not now" signs the administrator in without a passkey, and the offer comes again next time', async () => {
    const email = await administrator('admin-later');
    for (let i = 0; i < 2; i++) {
      const browser = new Browser();
      const codePage = await submitEmail(browser, await openSignIn(t, browser), email);
      const offer = await submitCode(t, browser, codePage, t.mailer.lastCode(email), 'keep');
      expect(isPasskeyOffer(offer), offer.text).toBe(true);
      const back = await until(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
      await expectSignedInAs(browser, back, email);
    }
    const { rows } = await d.db.query('SELECT 1 FROM console_passkeys WHERE account = $1', [email]);
    expect(rows).toEqual([]);
  });

  it('offers no passkey to an address that is no account yet (its first sign-in makes the account)', async () => {
    const newcomer = uniqueEmail('first-time');
    const browser = new Browser();
    const codePage = await submitEmail(browser, await openSignIn(t, browser), newcomer);
    const back = await submitCode(t, browser, codePage, t.mailer.lastCode(newcomer), 'keep');
    expect(isPasskeyOffer(back), back.text).toBe(false);
    await expectSignedInAs(browser, back, newcomer);

    const { rows } = await d.db.query('SELECT 1 FROM console_passkeys WHERE account = $1', [newcomer]);
    expect(rows).toEqual([]);
  });

  it('deactivating an account deletes its passkeys: reactivated, it signs in by code and is offered one again', async () => {
    const owner = await signedInAccount(t, d.db, [GLOBAL_WILDCARD]);
    const project = await createProject(owner);
    const email = uniqueEmail('leaver');
    const member = await signedInAccount(t, d.db, [`cst:${project}:usage`], email);
    const passkey = await signInCreatingPasskey(email);
    const path = apiPath(api.updateAccount, { project, account: member.account.id });
    expect((await owner.api.put(path, { permissions: [`cst:${project}:usage`], active: false })).status).toBe(200);
    const { rows } = await d.db.query('SELECT 1 FROM console_passkeys WHERE id = $1', [passkey.id]);
    expect(rows).toEqual([]);

    // Inactive: a code still proves the address, but no passkey is offered and the console refuses the account.
    const browser = new Browser();
    const page = await submitEmail(browser, await openSignIn(t, browser), email);
    expect(page.text).toContain('We sent a 6-digit code to');
    const back = await submitCode(t, browser, page, t.mailer.lastCode(email), 'keep');
    expect(isPasskeyOffer(back), back.text).toBe(false);
    expect((await postLogin(t, browser, back.location as string)).status).toBe(403);

    expect((await owner.api.put(path, { permissions: [`cst:${project}:usage`], active: true })).status).toBe(200);
    await signInCreatingPasskey(email);
  });
});
