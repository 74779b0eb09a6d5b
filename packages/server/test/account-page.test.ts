import { expect, it, vi } from 'vitest';
import { api, endUsersApi, buildPath, type EndUserDetail, type Project } from '@latchkey/domain';
import { signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { endUserSignIns } from './support/end-user-sign-in.ts';
import { apiPath, closeProject, getProject, personOf, storeDevice } from './support/fixtures.ts';
import { projectWithRelyingParty, type RelyingParty } from './support/relying-party.ts';
import { declinePasskey, formAction, isPasskeyOffer, linkHref, submitEmail } from './support/sign-in.ts';

/** The account page's forms: where each posts, and the token it carries. */
function forms(page: BrowserResponse): Array<{ action: string; csrf: string | null; fields: Record<string, string>; button: string }> {
  return [...page.text.matchAll(/<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)].map((m) => ({
    action: new URL((m[1] as string).replaceAll('&amp;', '&'), page.url).href,
    csrf: /name="csrf" value="([^"]+)"/.exec(m[2] as string)?.[1] ?? null,
    // Its hidden fields (the token, the passkey it is about), as the browser posts them.
    fields: Object.fromEntries(
      [...(m[2] as string).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [
        f[1] as string,
        (f[2] as string).replaceAll('&amp;', '&'),
      ]),
    ),
    button: /<button[^>]*>([^<]*)<\/button>/.exec(m[2] as string)?.[1] ?? '',
  }));
}

function formNamed(page: BrowserResponse, button: string, index = 0) {
  const found = forms(page).filter((f) => f.button === button)[index];
  if (!found) throw new Error(`no form "${button}" on ${page.url}:\n${page.text}`);
  return found;
}

/** The passkeys the page lists, by name, in its order. */
const listedPasskeys = (page: BrowserResponse) => [...page.text.matchAll(/<p class="item-title"><span>([^<]*)<\/span>/g)].map((m) => m[1] as string);

/** The QuickCode on the page that shows one ("123 456"), digits only. */
const shownCode = (page: BrowserResponse): string | null =>
  /<p class="quickcode"[^>]*>(\d{3}) (\d{3})<\/p>/.exec(page.text)?.slice(1).join('') ?? null;

// Issue 24 "The end user's own page at the issuer"; docs/decisions/0040.
describeWithDatabase('the account page at a project’s issuer', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  const { newUserWithPasskey } = endUserSignIns(app);

  const accountUrl = (p: RelyingParty) => `${app.baseUrl}/p/${p.projectId}/account`;
  const last = async (browser: Browser, first: Promise<BrowserResponse>) => (await browser.follow(await first)).at(-1) as BrowserResponse;
  const eventsOf = async (projectId: string, action: string) =>
    (
      await t.db.query<{
        event_status: string;
        user_id: string;
        device_name: string | null;
        client_id: string | null;
        details: Record<string, unknown>;
      }>(
        `SELECT event_status, user_id, device_name, client_id, details FROM audit_events WHERE project_id = $1 AND details->>'action' = $2 ORDER BY id`,
        [projectId, action],
      )
    ).rows;
  const deviceRow = async (projectId: string, id: string) =>
    (
      await t.db.query<{ name: string; revoked: boolean; revoke_reason: string | null; backup_eligible: boolean | null; backed_up: boolean | null }>(
        'SELECT name, revoked, revoke_reason, backup_eligible, backed_up FROM devices WHERE project_id = $1 AND id = $2',
        [projectId, id],
      )
    ).rows[0];

  /** A fresh browser signs in to the account page with the passkey: page 1, the passkey, back to the page. */
  async function signInToAccount(p: RelyingParty, email: string, passkey: Passkey, browser = new Browser()) {
    const page1 = await last(browser, browser.get(accountUrl(p)));
    expect(page1.text, page1.text).toContain('Sign in to');
    const passkeyPage = await submitEmail(browser, page1, email);
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), app.baseUrl);
    const page = await last(browser, browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } }));
    expect(page.url).toBe(accountUrl(p));
    expect(page.status, page.text).toBe(200);
    return { browser, page };
  }

  async function setUp(settings: Partial<Project> = {}): Promise<{ admin: SignedIn; p: RelyingParty; email: string; passkey: Passkey }> {
    const admin = await signedInAccount(app, t.db);
    const p = await projectWithRelyingParty(app, admin);
    if (Object.keys(settings).length > 0) {
      const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), {
        ...(await getProject(admin, p.projectId)),
        ...settings,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const { email, passkey } = await newUserWithPasskey(new Browser(), p, 'account');
    return { admin, p, email, passkey };
  }

  it('signs in with the user’s passkey through the issuer, then lists their passkey and this session, in the project’s brand', async () => {
    const { p, email, passkey } = await setUp();
    const codes = async () =>
      (await t.db.query(`SELECT 1 FROM oidc_payloads WHERE issuer = $1 AND kind = 'AuthorizationCode'`, [p.projectId])).rows.length;
    const codesBefore = await codes();
    const { page, browser } = await signInToAccount(p, email, passkey);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain(`Signed in as ${email}`);
    // Its passkey, then this browser's session first, then the sign-up's.
    expect(listedPasskeys(page)).toEqual(['Unknown device', 'This browser', 'Another browser or device']);
    expect(page.text).toContain('Used to sign in here');
    expect(page.text).toContain('This account page');
    // The sign-in was the project's: a passkey sign-in event, with the account page as its client.
    const signIns = await eventsOf(p.projectId, 'sign_in');
    expect(signIns.at(-1)).toMatchObject({
      event_status: 'success',
      user_id: await personOf(t.db, p.projectId, email),
      client_id: 'latchkey-account',
      details: { method: 'passkey' },
    });
    // The page's code was taken by the page: none is left to exchange.
    expect(await codes()).toBe(codesBefore);
    // Opened again, the page needs no second sign-in; it speaks the browser's language (en, fr, ro).
    const again = await browser.get(accountUrl(p));
    expect(again.status).toBe(200);
    expect((await browser.get(accountUrl(p), { 'accept-language': 'fr-FR,fr;q=0.9' })).text).toContain('Votre compte');
    expect((await browser.get(accountUrl(p), { 'accept-language': 'ro' })).text).toContain('Conectat ca');
  });

  /** The Signal API calls the page passes to its script (data-signal, data-signal-options). */
  const signalsOf = (html: string) =>
    [...html.matchAll(/data-signal="([^"]+)" data-signal-options="([^"]*)"/g)].map((m) => ({
      signalName: m[1],
      ...(JSON.parse((m[2] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as Record<string, unknown>),
    }));

  it('keeps the browser in step (Signal API): the passkeys of this relying party it accepts, and the identity as their name', async () => {
    const { p, email, passkey } = await setUp();
    const { page, browser } = await signInToAccount(p, email, passkey);
    const { rows } = await t.db.query<{ user_id: string }>('SELECT user_id FROM devices WHERE project_id = $1 AND id = $2', [
      p.projectId,
      passkey.id,
    ]);
    const userId = rows[0]?.user_id as string;
    // The user handle registration gave the passkey (the user id's bytes), base64url.
    const userID = Buffer.from(userId).toString('base64url');
    const rpID = new URL(app.baseUrl).hostname;
    expect(signalsOf(page.text)).toEqual([
      { signalName: 'allAcceptedCredentials', rpID, userID, allAcceptedCredentialIDs: [passkey.id] },
      { signalName: 'currentUserDetails', rpID, userID, userName: email, userDisplayName: email },
    ]);
    expect(page.text).toContain('<script defer src="/idp/assets/passkey.js">');
    // Another active passkey under this rpID is listed; one made for another relying party, or revoked, is not.
    const same = await storeDevice(t.db, { projectId: p.projectId, userId, createdAt: new Date() });
    const elsewhere = await storeDevice(t.db, { projectId: p.projectId, userId, createdAt: new Date() });
    await t.db.query('UPDATE devices SET rp_id = $3 WHERE project_id = $1 AND id = $2', [p.projectId, elsewhere, 'elsewhere.localhost']);
    const revoked = await storeDevice(t.db, { projectId: p.projectId, userId, createdAt: new Date() });
    await t.db.query('UPDATE devices SET revoked = true WHERE project_id = $1 AND id = $2', [p.projectId, revoked]);
    const again = await browser.get(accountUrl(p));
    const accepted = signalsOf(again.text)[0] as unknown as { allAcceptedCredentialIDs: string[] };
    expect([...accepted.allAcceptedCredentialIDs].sort()).toEqual([passkey.id, same].sort());
  });

  it('renames a passkey; refuses an empty or too long name, or a form without this session’s token, changing nothing', async () => {
    const { p, email, passkey } = await setUp();
    const { browser, page } = await signInToAccount(p, email, passkey);
    const rename = formNamed(page, 'Save');
    expect(rename.action).toBe(`${accountUrl(p)}/passkeys/rename`);
    expect(rename.fields.passkey).toBe(passkey.id);

    const empty = await browser.request(rename.action, { form: { ...rename.fields, name: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('Enter a name of 1 to 64 characters');
    const long = await browser.request(rename.action, { form: { ...rename.fields, name: 'x'.repeat(65) } });
    expect(long.status).toBe(400);
    const forged = await browser.request(rename.action, { form: { ...rename.fields, csrf: 'not-the-token', name: 'Forged' } });
    expect(forged.status).toBe(403);
    const stranger = await new Browser().request(rename.action, { form: { ...rename.fields, name: 'Stranger' } });
    expect(stranger.status).toBe(303);
    expect(stranger.location).toContain('/auth?');
    expect((await deviceRow(p.projectId, passkey.id))?.name).toBe('Unknown device');

    const renamed = await last(browser, browser.request(rename.action, { form: { ...rename.fields, name: '  Work laptop ' } }));
    expect(renamed.text).toContain('The passkey was renamed.');
    expect(listedPasskeys(renamed)[0]).toBe('Work laptop');
    expect((await deviceRow(p.projectId, passkey.id))?.name).toBe('Work laptop');
    expect(await eventsOf(p.projectId, 'device.rename')).toEqual([
      expect.objectContaining({
        event_status: 'success',
        user_id: await personOf(t.db, p.projectId, email),
        device_name: 'Work laptop',
        details: expect.objectContaining({ mpinId: passkey.id }),
      }),
    ]);
  });

  it('adds a passkey on this device, removes one after a plain confirm, and the last one only after the warning about the emailed code', async () => {
    const { p, email, passkey } = await setUp();
    const { browser, page } = await signInToAccount(p, email, passkey);
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string;
    const newPage = await browser.get(new URL(create, page.url).href);
    expect(newPage.status, newPage.text).toBe(200);
    const { passkey: second, response } = createPasskey(pageOptions<CreationOptions>(newPage.text), app.baseUrl);
    const added = await last(
      browser,
      browser.request(formAction(newPage), {
        form: { ...formNamed(newPage, 'Create a passkey').fields, response: JSON.stringify(response) },
      }),
    );
    expect(added.text).toContain('The passkey was created.');
    expect(listedPasskeys(added).slice(0, 2)).toHaveLength(2);
    expect((await eventsOf(p.projectId, 'device.register')).at(-1)).toMatchObject({
      event_status: 'created',
      details: { mpinId: second.id, verifiedBy: 'account_page' },
    });

    // The second passkey (not this session's): a confirm without the warning.
    const confirm = await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${encodeURIComponent(second.id)}`);
    expect(confirm.text).toContain('Remove this passkey?');
    expect(confirm.text).not.toContain('This is your last passkey');
    const removed = await last(browser, browser.request(formAction(confirm), { form: formNamed(confirm, 'Remove').fields }));
    expect(removed.text).toContain('The passkey was removed.');
    expect(await deviceRow(p.projectId, second.id)).toMatchObject({ revoked: true, revoke_reason: 'USER_REMOVED' });
    expect((await eventsOf(p.projectId, 'device.revoke')).at(-1)).toMatchObject({
      event_status: 'success',
      user_id: await personOf(t.db, p.projectId, email),
      details: { mpinId: second.id },
    });

    // The last one, which this session began with: both warnings; removing it signs this browser out.
    const lastConfirm = await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${encodeURIComponent(passkey.id)}`);
    expect(lastConfirm.text).toContain('This is your last passkey. Your next sign-in will need a code sent to your email.');
    expect(lastConfirm.text).toContain('removing it also signs you out here');
    const gone = await browser.request(formAction(lastConfirm), { form: formNamed(lastConfirm, 'Remove').fields });
    expect(gone.status).toBe(303);
    expect((await deviceRow(p.projectId, passkey.id))?.revoked).toBe(true);
    const after = await browser.get(accountUrl(p));
    expect(after.status).toBe(303);
    expect(after.location).toContain('/auth?');
  });

  it('says which passkeys are synced (their backup flags) and suggests a second passkey while each is on one device only', async () => {
    const { p, email, passkey } = await setUp();
    const { browser, page } = await signInToAccount(p, email, passkey);
    expect(page.text).toContain('<dt>Kept</dt><dd>On this device only</dd>');
    expect(page.text).toContain('Your passkeys are each kept on one device only.');
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string;
    const newPage = await browser.get(new URL(create, page.url).href);
    const { passkey: synced, response } = createPasskey(pageOptions<CreationOptions>(newPage.text), app.baseUrl, { synced: true });
    const added = await last(
      browser,
      browser.request(formAction(newPage), { form: { ...formNamed(newPage, 'Create a passkey').fields, response: JSON.stringify(response) } }),
    );
    expect(added.text).toContain('<dt>Kept</dt><dd>Synced to your other devices</dd>');
    expect(added.text).not.toContain('Your passkeys are each kept on one device only.');
    expect(await deviceRow(p.projectId, synced.id)).toMatchObject({ backup_eligible: true, backed_up: true });
  });

  it('lists the other sessions and signs out of them, then signs out here', async () => {
    const { p, email, passkey } = await setUp();
    const { browser: here, page: first } = await signInToAccount(p, email, passkey);
    const { browser: there } = await signInToAccount(p, email, passkey);
    // The session of the sign-up (newUserWithPasskey) and the two account pages'.
    const page = await here.get(accountUrl(p));
    expect(page.text.match(/<li class="item">/g)?.length).toBe(1 + 3);
    expect(first.text).toContain('Sign out everywhere else');
    const others = formNamed(page, 'Sign out everywhere else');
    const done = await last(here, here.request(others.action, { form: { ...others.fields } }));
    expect(done.text).toContain('You were signed out everywhere else.');
    expect(done.text).toContain('You are not signed in anywhere else.');
    expect((await there.get(accountUrl(p))).status).toBe(303);
    expect((await eventsOf(p.projectId, 'sign_out')).at(-1)).toMatchObject({
      user_id: await personOf(t.db, p.projectId, email),
      details: { sessions: 'others', sessionsEnded: 2 },
    });

    const out = formNamed(done, 'Sign out here');
    const signedOut = await here.request(out.action, { form: { ...out.fields } });
    expect(signedOut.text).toContain('You signed out');
    const gone = await here.get(accountUrl(p));
    expect(gone.status).toBe(303);
    expect(gone.location).toContain('/auth?');
  });

  it('issues a QuickCode from the passkey this session began with, which another device then uses', async () => {
    const { p, email, passkey } = await setUp({ enableRegistrationCode: true });
    const { browser, page } = await signInToAccount(p, email, passkey);
    const get = formNamed(page, 'Get a QuickCode');
    const shown = await browser.request(get.action, { form: { ...get.fields } });
    const code = shownCode(shown);
    expect(code, shown.text).toMatch(/^\d{6}$/);
    expect((await eventsOf(p.projectId, 'reg_code.issued')).at(-1)).toMatchObject({ event_status: 'success', details: { mpinId: passkey.id } });
    // Another device: page 1, "I have a QuickCode", the address and the code: it is offered a passkey.
    const other = new Browser();
    const page1 = await last(other, other.get(accountUrl(p)));
    const entry = await last(other, other.get(linkHref(page1, 'I have a QuickCode')));
    const next = await last(other, other.request(formAction(entry), { form: { email, code: code as string } }));
    expect(next.text).toContain('Create a passkey');
  });

  it('shows nothing of another user’s passkey, refuses a blocked user and a closed project', async () => {
    const { admin, p, email, passkey } = await setUp();
    const { passkey: theirs } = await newUserWithPasskey(new Browser(), p, 'someone-else');
    const { browser } = await signInToAccount(p, email, passkey);
    expect((await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${encodeURIComponent(theirs.id)}`)).status).toBe(404);
    const page = await browser.get(accountUrl(p));
    const remove = formNamed(page, 'Save');
    const foreign = await browser.request(`${accountUrl(p)}/passkeys/remove`, {
      form: { ...remove.fields, passkey: theirs.id },
    });
    expect(foreign.status).toBe(404);
    expect((await deviceRow(p.projectId, theirs.id))?.revoked).toBe(false);

    const id = (await t.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [p.projectId, email])).rows[0]
      ?.id as string;
    expect((await admin.api.post<EndUserDetail>(`/api${buildPath(endUsersApi.blockEndUser.path, { project: p.projectId, user: id })}`)).status).toBe(
      200,
    );
    expect((await browser.get(accountUrl(p))).status).toBe(303);
    await closeProject(admin, p.projectId);
    const closed = await browser.get(accountUrl(p));
    expect(closed.status).toBe(403);
    expect(closed.text).toContain('Nobody can sign in');
  });

  it('answers bad input with a 4xx page, never a 500, and changes nothing', async () => {
    const { p, email, passkey } = await setUp();
    const { browser, page } = await signInToAccount(p, email, passkey);
    const rename = formNamed(page, 'Save');
    const json = await browser.request(rename.action, { json: { csrf: rename.csrf, name: 'Json' } });
    expect(json.status).toBe(415);
    const badEncoding = await browser.request(rename.action, { urlencoded: `csrf=${rename.csrf as string}&passkey=x&name=%E0%A4%A` });
    expect(badEncoding.status).toBe(400);
    const huge = await browser.request(rename.action, { form: { ...rename.fields, name: 'x'.repeat(20_000) } });
    expect(huge.status).toBe(413);
    const nobody = await browser.get(`${app.baseUrl}/p/nosuchproject0000/account`);
    expect(nobody.status).toBe(404);
    const noPasskey = await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${'A'.repeat(1400)}`);
    expect(noPasskey.status).toBe(404);
    const noSession = await browser.request(`${accountUrl(p)}/sessions/nosuchsession/end`, { form: { ...rename.fields } });
    expect(noSession.status).toBe(404);
    const badCallback = await browser.get(`${accountUrl(p)}/callback?code=x&state=not-mine`);
    expect(badCallback.status).toBe(400);
    expect(badCallback.text).toContain('You did not sign in');
    expect((await deviceRow(p.projectId, passkey.id))?.name).toBe('Unknown device');
  });

  it('refuses a NUL, a lone surrogate or a control character in any field of any of its forms with a 400, changing nothing', async () => {
    const { p, email, passkey } = await setUp({ enableRegistrationCode: true });
    // Another session, so the page offers to sign out of one and of the others.
    await signInToAccount(p, email, passkey);
    const { browser, page } = await signInToAccount(p, email, passkey);
    const confirm = await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${encodeURIComponent(passkey.id)}`);
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string;
    const newPage = await browser.get(new URL(create, page.url).href);
    const { response } = createPasskey(pageOptions<CreationOptions>(newPage.text), app.baseUrl);
    const rename = formNamed(page, 'Save');
    const adding = formNamed(newPage, 'Create a passkey');
    const posted = [
      { ...rename, fields: { ...rename.fields, name: 'Renamed' } },
      formNamed(confirm, 'Remove'),
      { ...adding, fields: { ...adding.fields, response: JSON.stringify(response) } },
      formNamed(page, 'Get a QuickCode'),
      formNamed(page, 'Sign out'),
      formNamed(page, 'Sign out everywhere else'),
      formNamed(page, 'Sign out here'),
    ];
    const count = async (sql: string) => (await t.db.query(sql, [p.projectId])).rows.length;
    const state = async () => ({
      devices: (await t.db.query('SELECT id, name, revoked FROM devices WHERE project_id = $1 ORDER BY id', [p.projectId])).rows,
      sessions: await count(`SELECT 1 FROM oidc_payloads WHERE issuer = $1 AND kind = 'Session'`),
      events: await count('SELECT 1 FROM audit_events WHERE project_id = $1'),
      quickCodes: await count('SELECT 1 FROM registration_codes WHERE project_id = $1'),
    });
    const before = await state();
    // A lone surrogate has no UTF-8 form: a browser can only send the bytes of its CESU-8 encoding.
    const bad = { NUL: '%00', 'a lone surrogate': '%ED%A0%80', 'a control character': '%1B' };
    for (const form of posted) {
      expect(Object.keys(form.fields).length, form.action).toBeGreaterThan(0);
      for (const field of Object.keys(form.fields)) {
        for (const [what, raw] of Object.entries(bad)) {
          const body = Object.entries(form.fields)
            .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}${name === field ? raw : ''}`)
            .join('&');
          const answer = await browser.request(form.action, { urlencoded: body });
          expect(answer.status, `${what} in ${field} of ${form.action}: ${answer.text}`).toBe(400);
        }
      }
    }
    // In a field's name too.
    const badName = `${new URLSearchParams(rename.fields).toString()}&name=Renamed&x%00=1`;
    expect((await browser.request(rename.action, { urlencoded: badName })).status).toBe(400);
    expect(await state()).toEqual(before);
    // Still signed in, and the same form goes through clean.
    const renamed = await browser.request(rename.action, { form: { ...rename.fields, name: 'Renamed' } });
    expect(renamed.status, renamed.text).toBe(303);
  });

  it('registers a passkey made from a session no passkey began as the account page’s: under limitRegCodeVerified it issues no QuickCode', async () => {
    const { p, email, passkey } = await setUp({ enableRegistrationCode: true, limitRegCodeVerified: true });
    const { browser, page } = await signInToAccount(p, email, passkey);
    const code = shownCode(await browser.request(formNamed(page, 'Get a QuickCode').action, { form: formNamed(page, 'Get a QuickCode').fields }));
    // Another device signs in to the account page with the QuickCode and says "Not now" to the passkey.
    const other = new Browser();
    const page1 = await last(other, other.get(accountUrl(p)));
    const entry = await last(other, other.get(linkHref(page1, 'I have a QuickCode')));
    const offer = await last(other, other.request(formAction(entry), { form: { email, code: code as string } }));
    expect(isPasskeyOffer(offer)).toBe(true);
    const account = await last(other, declinePasskey(other, offer));
    expect(account.url).toBe(accountUrl(p));
    expect(account.text).toContain(`Signed in as ${email}`);
    expect(account.text).not.toContain('Used to sign in here');
    // There it creates a passkey: the page cannot tell how the session was verified.
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(account.text)?.[1] as string;
    const newPage = await other.get(new URL(create, account.url).href);
    const { passkey: made, response } = createPasskey(pageOptions<CreationOptions>(newPage.text), app.baseUrl);
    await other.request(formAction(newPage), { form: { ...formNamed(newPage, 'Create a passkey').fields, response: JSON.stringify(response) } });
    const registered = await t.db.query<{ registered_with: string }>('SELECT registered_with FROM devices WHERE project_id = $1 AND id = $2', [
      p.projectId,
      made.id,
    ]);
    expect(registered.rows[0]?.registered_with).toBe('account_page');
    // Signed in with it, the page issues no QuickCode.
    const { browser: third, page: withMade } = await signInToAccount(p, email, made);
    const refused = await third.request(formNamed(withMade, 'Get a QuickCode').action, { form: formNamed(withMade, 'Get a QuickCode').fields });
    expect(refused.status).toBe(403);
    expect(shownCode(refused)).toBeNull();
    expect((await eventsOf(p.projectId, 'reg_code.issued')).at(-1)).toMatchObject({ event_status: 'denied', details: { reason: 'verified_only' } });
  });

  it('gives the page’s client no token: the token endpoint refuses latchkey-account (401 invalid_client)', async () => {
    const { p } = await setUp();
    const answer = await fetch(`${app.baseUrl}/p/${p.projectId}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('latchkey-account:anything').toString('base64')}`,
      },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', redirect_uri: `${accountUrl(p)}/callback` }).toString(),
    });
    expect(answer.status).toBe(401);
    expect(((await answer.json()) as { error: string }).error).toBe('invalid_client');
  });

  it('keeps only known transports of a new passkey, creates no more than 20, and counts a person’s changes (429 past 30 in ten minutes)', async () => {
    const { p, email, passkey } = await setUp();
    const { browser, page } = await signInToAccount(p, email, passkey);
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string;
    const newPage = await browser.get(new URL(create, page.url).href);
    const { passkey: odd, response } = createPasskey(pageOptions<CreationOptions>(newPage.text), app.baseUrl);
    const sent = {
      ...response,
      response: { ...(response.response as Record<string, unknown>), transports: ['usb\u0000', 'internal', 'internal', 42] },
    };
    const added = await browser.request(formAction(newPage), {
      form: { ...formNamed(newPage, 'Create a passkey').fields, response: JSON.stringify(sent) },
    });
    expect(added.status, added.text).toBe(303);
    const stored = await t.db.query<{ transports: string[] }>('SELECT transports FROM devices WHERE project_id = $1 AND id = $2', [
      p.projectId,
      odd.id,
    ]);
    expect(stored.rows[0]?.transports).toEqual(['internal']);

    const userId = (await t.db.query<{ id: string }>('SELECT id FROM project_users WHERE project_id = $1 AND email = $2', [p.projectId, email]))
      .rows[0]?.id as string;
    for (let i = 0; i < 18; i += 1) await storeDevice(t.db, { projectId: p.projectId, userId, createdAt: app.clock.now(), name: `Key ${i}` });
    const full = await browser.get(new URL(create, page.url).href);
    expect(full.status).toBe(409);
    expect(full.text).toContain('You have 20 passkeys, the most an account may have.');

    const rename = formNamed(page, 'Save');
    const statuses: number[] = [];
    for (let i = 0; i < 31; i += 1) statuses.push((await browser.request(rename.action, { form: { ...rename.fields, name: `Name ${i}` } })).status);
    // The passkey creation above was one change of the thirty.
    expect(statuses.filter((s) => s === 303)).toHaveLength(29);
    expect(statuses.slice(29)).toEqual([429, 429]);
  });

  it('asks for a sign-in again (max_age) before a passkey or a QuickCode is added or one removed, when the last is over ten minutes old', async () => {
    const { p, email, passkey } = await setUp({ enableRegistrationCode: true });
    const { browser, page } = await signInToAccount(p, email, passkey);
    const later = Date.now() + 11 * 60 * 1000;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(page.text)?.[1] as string;
      for (const answer of [
        await browser.get(new URL(create, page.url).href),
        await browser.get(`${accountUrl(p)}/passkeys/remove?passkey=${encodeURIComponent(passkey.id)}`),
        await browser.request(formNamed(page, 'Get a QuickCode').action, { form: formNamed(page, 'Get a QuickCode').fields }),
      ]) {
        expect(answer.status).toBe(303);
        expect(new URL(answer.location as string).searchParams.get('max_age')).toBe('600');
      }
      // Reading the page and renaming need no fresh sign-in.
      expect((await browser.get(accountUrl(p))).status).toBe(200);
    } finally {
      clock.mockRestore();
    }
  });
});
