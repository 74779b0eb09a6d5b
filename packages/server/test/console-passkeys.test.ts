import { expect, it } from 'vitest';
import { api, GLOBAL_WILDCARD } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, createProject, REDIRECT } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { DISCOVERIES_FAILED_PER_CLIENT } from '../src/oidc/passkeys.ts';
import {
  discoverAction,
  formAction,
  isPasskeyOffer,
  openSignIn,
  postLogin,
  signInThroughProvider,
  submitCode,
  submitEmail,
} from './support/sign-in.ts';

/** The options of page 1's discoverable request (docs/decisions/0048). */
type DiscoverOptions = RequestOptions & { rpId: string; allowCredentials?: unknown[] };

// docs/decisions/0027: the console's issuer is an issuer like every project's, so an administrator
// gets what a project's end user gets: a passkey offered after the emailed code; then (docs/decisions/0048)
// page 1 leads with a discoverable request, as at a project's own host.
describeEachDatabase("administrators' passkeys at the console's issuer", (d) => {
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
    const options = pageOptions<CreationOptions & { user: { name: string }; authenticatorSelection: { residentKey: string } }>(offer.text);
    expect(options.rp.id).toBe(new URL(t.baseUrl).hostname);
    // Discoverable (docs/decisions/0048: page 1 offers it without an address), named by the address.
    expect(options.authenticatorSelection.residentKey).toBe('required');
    expect(options.user.name).toBe(email);
    // The WebAuthn user handle names nobody (WebAuthn §5.4.3) and fits its 64 bytes: a keyed hash, not the address.
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect(Buffer.from(options.user.id, 'base64url').toString('utf8')).not.toContain(email);
    const { passkey, response } = createPasskey(options, t.baseUrl);
    const back = await until(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    await expectSignedInAs(browser, back, email);
    return passkey;
  }

  /**
   * An end user's passkey at a project on the shared path (PUBLIC_URL's host, the console's relying
   * party too): their address, the emailed code, "Create a passkey".
   */
  async function endUserPasskey(project: RelyingParty): Promise<Passkey> {
    const browser = new Browser();
    const email = uniqueEmail('end-user');
    const request = await authorizationRequest(project);
    const page1 = (await browser.follow(await browser.get(request.url.href))).at(-1) as BrowserResponse;
    const codePage = await submitEmail(browser, page1, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const done = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return passkey;
  }

  /** Page 1 of a new sign-in at the console's issuer: its discoverable request's options (docs/decisions/0048). */
  async function page1Of(browser: Browser): Promise<{ page: BrowserResponse; options: DiscoverOptions }> {
    const page = await openSignIn(t, browser);
    expect(page.status, page.text).toBe(200);
    return { page, options: pageOptions<DiscoverOptions>(page.text) };
  }

  /** The Signal API calls a page passes to its script (data-signal, data-signal-options). */
  const signalsOf = (html: string) =>
    [...html.matchAll(/data-signal="([^"]+)" data-signal-options="([^"]*)"/g)].map((m) => ({
      signalName: m[1],
      ...(JSON.parse((m[2] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as Record<string, unknown>),
    }));

  const host = () => new URL(t.baseUrl).hostname;

  it('page 1 leads with the passkey; an administrator signs in with theirs from it, no address typed, no code mailed', async () => {
    const email = await administrator('admin-passkey');
    const passkey = await signInCreatingPasskey(email);
    // counter is a bigint: pg answers it as text, PGlite as a number; either way it is 0.
    const { rows } = await d.db.query<{ account: string; counter: string | number }>('SELECT account, counter FROM console_passkeys WHERE id = $1', [
      passkey.id,
    ]);
    expect(rows.map((r) => ({ account: r.account, counter: Number(r.counter) }))).toEqual([{ account: email, counter: 0 }]);

    const codes = t.mailer.count(email);
    const browser = new Browser();
    const { page, options } = await page1Of(browser);
    // A discoverable request for PUBLIC_URL's host, no credentials listed; the field offers passkeys in its autofill.
    expect(options.rpId).toBe(host());
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(page.text).toMatch(/<input id="email"[^>]*autocomplete="username webauthn"/);
    // The passkey is page 1's first action: its form comes before the address's.
    expect(page.text.indexOf('data-webauthn="discover"')).toBeLessThan(page.text.indexOf('name="email"'));
    expect(page.text).toContain('>Use a phone or another device</button>');
    const response = usePasskey(passkey, options, t.baseUrl);
    const back = await until(browser, await browser.request(discoverAction(page), { form: { response: JSON.stringify(response) } }));
    await expectSignedInAs(browser, back, email);
    expect(t.mailer.count(email)).toBe(codes);
    const used = await d.db.query<{ counter: string }>('SELECT counter FROM console_passkeys WHERE id = $1', [passkey.id]);
    expect(Number(used.rows[0]?.counter)).toBe(1);
  });

  it('page 1 tells nothing: an administrator with a passkey who types the address is mailed a code, and is not offered another', async () => {
    const email = await administrator('admin-types');
    await signInCreatingPasskey(email);
    const browser = new Browser();
    const codePage = await submitEmail(browser, await openSignIn(t, browser), email);
    expect(codePage.text).toContain('We sent a 6-digit code to');
    const back = await submitCode(t, browser, codePage, t.mailer.lastCode(email), 'keep');
    expect(isPasskeyOffer(back), back.text).toBe(false);
    await expectSignedInAs(browser, back, email);
  });

  it('asked for JSON (the page script, where the browser has the Signal API), the sign-in answers its redirect and the accepted credentials', async () => {
    const email = await administrator('admin-json');
    const passkey = await signInCreatingPasskey(email);
    const other = await signInCreatingPasskey(await administrator('admin-other'));
    const browser = new Browser();
    const { page, options } = await page1Of(browser);
    const response = usePasskey(passkey, options, t.baseUrl);
    const answer = await browser.request(discoverAction(page), {
      form: { response: JSON.stringify(response) },
      headers: { accept: 'application/json' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const body = answer.json<{ redirect: string; signals: unknown[] }>();
    const userID = passkey.userHandle;
    // The administrator's passkeys for this rpID (not another administrator's), and the address as their name.
    expect(body.signals).toEqual([
      { signalName: 'allAcceptedCredentials', rpID: host(), userID, allAcceptedCredentialIDs: [passkey.id] },
      { signalName: 'currentUserDetails', rpID: host(), userID, userName: email, userDisplayName: email },
    ]);
    expect(JSON.stringify(body.signals)).not.toContain(other.id);
    // The redirect is where the 303 would have gone: the sign-in goes on to the console.
    const back = await until(browser, await browser.get(new URL(body.redirect, t.baseUrl).href));
    await expectSignedInAs(browser, back, email);
  });

  it("an end user's passkey of a project on the shared path is refused at the console by name, never signalled unknown; one known nowhere is", async () => {
    const owner = await signedInAccount(t, d.db);
    const project = await projectWithRelyingParty(t, owner);
    const endUser = await endUserPasskey(project);
    const browser = new Browser();
    const { page, options } = await page1Of(browser);
    // Same relying party (PUBLIC_URL's host): the browser may well offer it here.
    expect(options.rpId).toBe(host());
    const answer = usePasskey(endUser, options, t.baseUrl);
    const refused = await browser.request(discoverAction(page), { form: { response: JSON.stringify(answer) } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('This passkey is not for the Latchkey console');
    expect(signalsOf(refused.text)).toEqual([]);
    // Page 1 again, with a new request, its error by the passkey buttons (not the address field's).
    expect(pageOptions<DiscoverOptions>(refused.text).challenge).not.toBe(options.challenge);
    expect(refused.text).not.toContain('aria-invalid="true"');

    // Revoked in its project, it is still that project's: not signalled either.
    await d.db.query('UPDATE devices SET revoked = true, revoked_at = now() WHERE project_id = $1 AND id = $2', [project.projectId, endUser.id]);
    const revoked = await browser.request(discoverAction(refused), {
      form: { response: JSON.stringify(usePasskey(endUser, pageOptions<DiscoverOptions>(refused.text), t.baseUrl)) },
    });
    expect(revoked.status).toBe(400);
    expect(signalsOf(revoked.text)).toEqual([]);

    // A credential the server knows nowhere: the browser may forget it.
    const { passkey: stray } = createPasskey({ challenge: 'AAAA', rp: { id: host() }, user: { id: 'c3RyYXk' } }, t.baseUrl);
    const unknown = await browser.request(discoverAction(revoked), {
      form: { response: JSON.stringify(usePasskey(stray, pageOptions<DiscoverOptions>(revoked.text), t.baseUrl)) },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('That passkey is not registered here');
    expect(signalsOf(unknown.text)).toEqual([{ signalName: 'unknownCredential', rpID: host(), credentialID: stray.id }]);
    // Nothing was signed in: the end user's device was not used.
    const { rows } = await d.db.query<{ counter: string }>('SELECT counter FROM devices WHERE project_id = $1 AND id = $2', [
      project.projectId,
      endUser.id,
    ]);
    expect(Number(rows[0]?.counter)).toBe(0);
  });

  it("refuses another administrator's passkey answered with someone else's user handle", async () => {
    const theirs = await signInCreatingPasskey(await administrator('admin-b'));
    const mine = await signInCreatingPasskey(await administrator('admin-a'));
    const browser = new Browser();
    const { page, options } = await page1Of(browser);
    const forged = usePasskey(theirs, options, t.baseUrl);
    (forged.response as { userHandle: string }).userHandle = mine.userHandle;
    const refused = await browser.request(discoverAction(page), { form: { response: JSON.stringify(forged) } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('That passkey is not registered here');
    // Known here: not signalled as unknown.
    expect(signalsOf(refused.text)).toEqual([]);
  });

  it("failed answers at the console are limited per client address like a project's (429 past the limit)", async () => {
    const owner = await signedInAccount(t, d.db);
    const endUser = await endUserPasskey(await projectWithRelyingParty(t, owner));
    const browser = new Browser();
    let current = (await page1Of(browser)).page;
    for (let i = 0; i < DISCOVERIES_FAILED_PER_CLIENT; i += 1) {
      const answer = usePasskey(endUser, pageOptions<DiscoverOptions>(current.text), t.baseUrl);
      current = await browser.request(discoverAction(current), { form: { response: JSON.stringify(answer) } });
      expect(current.status).toBe(400);
    }
    const answer = usePasskey(endUser, pageOptions<DiscoverOptions>(current.text), t.baseUrl);
    const limited = await browser.request(discoverAction(current), { form: { response: JSON.stringify(answer) } });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many tries');
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
