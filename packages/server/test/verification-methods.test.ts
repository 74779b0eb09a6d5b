import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, type Project } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, getProject, personOf, REDIRECT, setEnabled } from './support/fixtures.ts';
import { MINUTE } from './support/fakes.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, formHolding, isPasskeyOffer, signInThroughProvider } from './support/sign-in.ts';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const VERIFY_URL = 'https://verify.example.com/start?from=latchkey';

// docs/decisions/0018: end users known by an email address or an alphanumeric user id, new ones
// verified by an emailed code, an emailed link, or the project's own backend (Custom).
describeWithDatabase('identity types and verification methods at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    // A global administrator: the Custom Confirmation URL is a globally unlocked field (spec §6).
    admin = await signedInAccount(t, d.db, ['glb::*']);
  });

  /** A project with a relying party, its settings changed through the API as the console does. */
  async function project(settings: Partial<Project> = {}): Promise<RelyingParty> {
    const p = await projectWithRelyingParty(t, admin);
    const current = await getProject(admin, p.projectId);
    const res = await admin.api.put(apiPath(api.updateProject, { project: p.projectId }), { ...current, ...settings });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return p;
  }
  const verification = (method: 'standardEmail' | 'codeEmail' | 'fullCustom', more: Partial<Project['verificationOptions']> = {}) => ({
    verificationOptions: { method, url: '', confirmationURL: '', customText: '', identityTypeLabel: '', ...more },
  });
  const linkProject = () => project(verification('standardEmail'));
  const customProject = (more: Partial<Project['verificationOptions']> = {}, identityType: Project['identityType'] = 'alphanumeric') =>
    project({ ...verification('fullCustom', { url: VERIFY_URL, customText: 'Have your member card ready.', ...more }), identityType });

  async function page1(browser: Browser, p: RelyingParty) {
    const request = await authorizationRequest(p);
    const page = (await browser.follow(await browser.get(request.url.href))).at(-1) as BrowserResponse;
    expect(page.status, page.text).toBe(200);
    return { request, page };
  }
  async function submitId(browser: Browser, page: BrowserResponse, id: string, headers: Record<string, string> = {}) {
    return untilApp(browser, await browser.request(formAction(page), { form: { email: id }, headers }));
  }
  async function register(browser: Browser, offer: BrowserResponse) {
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const posted = await browser.request(formAction(offer), {
      form: { response: JSON.stringify(response) },
      headers: { 'user-agent': CHROME_ON_LINUX },
    });
    return { passkey, back: await untilApp(browser, posted) };
  }
  async function tokensOf(p: RelyingParty, back: BrowserResponse, verifier: string) {
    expect(back.location ?? '', back.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return client.authorizationCodeGrant(p.config, new URL(back.location as string), { pkceCodeVerifier: verifier });
  }
  /** The claims the application reads at userinfo (scope openid email). */
  async function userInfoOf(p: RelyingParty, back: BrowserResponse, verifier: string) {
    const tokens = await tokensOf(p, back, verifier);
    return client.fetchUserInfo(p.config, tokens.access_token, tokens.claims()?.sub as string);
  }
  /** A returning user: page 1, then the passkey alone. */
  async function signInWithPasskey(p: RelyingParty, id: string, passkey: Passkey): Promise<string> {
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    const passkeyPage = await submitId(browser, page, id);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const response = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    const back = await untilApp(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(response) } }));
    return (await tokensOf(p, back, request.verifier)).claims()?.sub as string;
  }
  async function eventsOf(projectId: string) {
    const { rows } = await d.db.query<{ status: string; user_id: string | null; client_id: string | null; details: Record<string, unknown> }>(
      `SELECT event_status AS status, user_id, client_id, details FROM audit_events WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    );
    return rows.map((r): Record<string, unknown> => ({ status: r.status, userId: r.user_id, clientId: r.client_id, ...r.details }));
  }
  const registeredWith = async (projectId: string) =>
    (await d.db.query<{ via: string }>('SELECT registered_with AS via FROM devices WHERE project_id = $1', [projectId])).rows.map((r) => r.via);

  // ---- Email Link ----------------------------------------------------------------------------

  it('Email Link: a new user opens the mailed link in the same browser, creates a passkey, then signs in with it alone', async () => {
    const p = await linkProject();
    const email = uniqueEmail('link');
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    expect(page.text).toContain('We will email you a sign-in link');
    const waiting = await submitId(browser, page, email.toUpperCase());
    expect(waiting.status, waiting.text).toBe(200);
    expect(waiting.text).toContain(`We sent a sign-in link to <strong>${email}</strong>`);
    expect(waiting.text).toMatch(/<script defer src="\/p\/[^"]+\/verification\/wait\.js"><\/script>/);
    expect(t.mailer.count(email)).toBe(0); // no code
    const link = t.mailer.lastLink(email);
    expect(link).toMatch(new RegExp(`^${t.baseUrl}/p/${p.projectId}/interaction/[^/]+/link\\?token=[A-Za-z0-9_-]{43}$`));
    const mail = t.mailer.links.at(-1)?.message;
    expect(mail?.text).toContain(link);
    expect(mail?.subject).toContain('sign-in link');

    // The script's question, then the link: the same browser goes straight on to the passkey offer.
    const status = `${new URL(waiting.url).origin}${new URL(waiting.url).pathname}/status`;
    expect((await browser.get(status)).json()).toEqual({ confirmed: false });
    const offer = await untilApp(browser, await browser.get(link));
    const { passkey, back } = await register(browser, offer);
    const info = await userInfoOf(p, back, request.verifier);
    expect(info).toMatchObject({ email, email_verified: true });
    expect(await registeredWith(p.projectId)).toEqual(['email_link']);

    // The link is single use.
    expect((await new Browser().get(link)).status).toBe(400);
    expect(await signInWithPasskey(p, email, passkey)).toBe(info.sub);
    const actions = (await eventsOf(p.projectId)).map((e) => `${String(e.action)}:${e.status}:${String(e.method ?? e.verifiedBy ?? '')}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        'verification.sent:success:email_link',
        'verification.confirmed:success:email_link',
        'device.register:created:email_link',
        'sign_in:success:email_link',
        'verification.failed:failed:email_link',
        'sign_in:success:passkey',
      ]),
    );
  });

  it('Email Link in another browser: confirmed there with a click, the first window goes on (Continue, or its script)', async () => {
    const p = await linkProject();
    const email = uniqueEmail('elsewhere');
    const first = new Browser();
    const { request, page } = await page1(first, p);
    const waiting = await submitId(first, page, email, { 'user-agent': CHROME_ON_LINUX });
    const link = t.mailer.lastLink(email);
    const verifiedUrl = formAction(waiting); // the Continue form (GET /verified)
    const status = `${formAction(waiting).replace(/\/verified$/, '/verify/status')}`;

    // Continue before the link is opened: the page says so.
    const early = await untilApp(first, await first.get(verifiedUrl));
    expect(early.text).toContain('The link has not been opened yet');

    // Another browser (a phone): opening the link asks; a mail scanner's GET confirms nothing.
    const phone = new Browser();
    const ask = await phone.get(link);
    expect(ask.status).toBe(200);
    expect(ask.text).toContain(`Someone started signing in to`);
    expect(ask.text).toContain(`as ${email} on Chrome on Linux`);
    expect((await first.get(status)).json()).toEqual({ confirmed: false });
    const token = new URL(link).searchParams.get('token') as string;
    const confirmed = await phone.request(formAction(ask), { form: { token } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.text).toContain('Your email address is verified');
    expect(confirmed.text).toContain('Go back to the window where you started signing in');
    expect(confirmed.location).toBeNull();
    expect((await first.get(status)).json()).toEqual({ confirmed: true });

    // The first window goes on (what its script submits): the passkey offer; "Not now" signs in.
    const offer = await untilApp(first, await first.get(verifiedUrl));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const back = await untilApp(first, await first.request(formAction(offer, 1), { form: { skip: '1' } }));
    expect((await userInfoOf(p, back, request.verifier)).email).toBe(email);
    // Used: the link and Continue lead nowhere now.
    expect((await phone.get(link)).status).toBe(400);
    const events = await eventsOf(p.projectId);
    // Before they were a person, the address's pseudonym; then the person's id (docs/decisions/0046).
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'verification.confirmed', where: 'other_browser', userId: expect.stringMatching(/^anon-/) }),
        expect.objectContaining({ action: 'sign_in', status: 'success', method: 'email_link', userId: await personOf(d.db, p.projectId, email) }),
      ]),
    );
    expect(JSON.stringify(events)).not.toContain(email);
  });

  it('the waiting page script is served from the issuer and polls, then submits Continue', async () => {
    const p = await linkProject();
    const script = await new Browser().get(`${t.baseUrl}/p/${p.projectId}/verification/wait.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('text/javascript');
    expect(script.text).toContain('data-verification-status');
    expect(script.text).toContain('form.submit()');
    expect((await new Browser().get(`${t.baseUrl}/p/no-such-project/verification/wait.js`)).status).toBe(404);
  });

  it('refuses a link that is expired, replaced, forged or of another interaction; sends under the code limits', async () => {
    const p = await linkProject();
    const email = uniqueEmail('refused');
    const browser = new Browser();
    const { page } = await page1(browser, p);
    const waiting = await submitId(browser, page, email);
    const firstLink = t.mailer.lastLink(email);
    // "Send a new link": the earlier one stops working.
    const resent = await untilApp(browser, await browser.request(formAction(waiting, 1), { form: { email, resend: '1' } }));
    expect(resent.text).toContain('We sent a new link. Earlier links no longer work.');
    const link = t.mailer.lastLink(email);
    expect(link).not.toBe(firstLink);
    const old = await browser.get(firstLink);
    expect(old.status).toBe(400);
    expect(old.text).toContain('This sign-in link has expired or was already used');

    // Forged token; the right token under another interaction's address.
    expect((await browser.get(link.replace(/token=.{5}/, 'token=AAAAA'))).status).toBe(400);
    const other = new Browser();
    const { page: otherPage } = await page1(other, p);
    await submitId(other, otherPage, uniqueEmail('other'));
    const otherUid = /interaction\/([^/]+)\//.exec(t.mailer.links.at(-1)?.link ?? '')?.[1] as string;
    expect((await other.get(link.replace(/interaction\/[^/]+\//, `interaction/${otherUid}/`))).status).toBe(400);

    // Expired after 10 minutes.
    t.clock.advance(11 * MINUTE);
    expect((await browser.get(link)).status).toBe(400);
    const failures = (await eventsOf(p.projectId)).filter((e) => e.action === 'verification.failed').map((e) => e.reason);
    expect(failures).toEqual(['unknown_link', 'unknown_link', 'unknown_link', 'expired']);

    // The sending limits of codes: five mails per interaction.
    const limited = new Browser();
    const { page: limitedPage } = await page1(limited, p);
    const to = uniqueEmail('limited');
    for (let i = 0; i < 5; i += 1) expect((await limited.request(formAction(limitedPage), { form: { email: to } })).status).toBe(303);
    const sixth = await limited.request(formAction(limitedPage), { form: { email: to } });
    expect(sixth.status).toBe(429);
    expect(t.mailer.links.filter((m) => m.email === to)).toHaveLength(5);

    // Mail down: 503 and an error event.
    t.mailer.failing = true;
    try {
      const down = new Browser();
      const { page: downPage } = await page1(down, p);
      const answer = await down.request(formAction(downPage), { form: { email: uniqueEmail('down') } });
      expect(answer.status).toBe(503);
      expect(answer.text).toContain('We could not send the link');
    } finally {
      t.mailer.failing = false;
    }
  });

  // ---- Custom ----------------------------------------------------------------------------------

  /** The project's backend: POST {issuer}/verification/confirm with the application's credentials. */
  async function confirm(
    p: RelyingParty,
    body: unknown,
    credentials: { id: string; secret: string } | null = { id: p.keys.clientId, secret: p.keys.clientSecret },
  ) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (credentials)
      headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(credentials.id)}:${encodeURIComponent(credentials.secret)}`).toString('base64')}`;
    const res = await fetch(`${t.baseUrl}/p/${p.projectId}/verification/confirm`, { method: 'POST', headers, body: JSON.stringify(body) });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
  }
  /** The custom page's way out: the project's verification URL with the signed request. */
  function requestOf(customPage: BrowserResponse): string {
    const href = /<a class="primary" href="([^"]+)">/.exec(customPage.text)?.[1]?.replaceAll('&amp;', '&');
    expect(href, customPage.text).toBeTruthy();
    const url = new URL(href as string);
    expect(`${url.origin}${url.pathname}`).toBe('https://verify.example.com/start');
    expect(url.searchParams.get('from')).toBe('latchkey');
    return url.searchParams.get('request') as string;
  }
  /** What the project's site does with the request: verify it against the issuer's published keys. */
  async function readAsProject(p: RelyingParty, request: string): Promise<Record<string, unknown>> {
    const [header, payload, signature] = request.split('.') as [string, string, string];
    const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as { alg: string; kid: string; typ: string };
    expect(head).toMatchObject({ alg: 'RS256', typ: 'verification-request+jwt' });
    const jwks = (await (await fetch(p.config.serverMetadata().jwks_uri as string)).json()) as { keys: JsonWebKey[] };
    const key = jwks.keys.find((k) => k.kid === head.kid) as JsonWebKey;
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), createPublicKey({ key, format: 'jwk' }), Buffer.from(signature, 'base64url'))).toBe(
      true,
    );
    return JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  }

  it('Custom with an alphanumeric user id: sent to the project signed, confirmed by its backend, back to a passkey; no email claim', async () => {
    const p = await customProject();
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    expect(page.text).toContain('<label for="email">User ID</label>');
    expect(page.text).toContain('type="text" autocomplete="username"');
    for (const bad of ['bad id', 'x'.repeat(65), 'ümlaut', 'semi;colon']) {
      const refused = await browser.request(formAction(page), { form: { email: bad } });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('Enter a user ID of 1 to 64 letters, digits, dots, hyphens, underscores or @');
    }
    const custom = await submitId(browser, page, '  Alice_01.x@corp ');
    expect(custom.status, custom.text).toBe(200);
    expect(custom.text).toContain('Have your member card ready.');
    const signed = requestOf(custom);
    const claims = await readAsProject(p, signed);
    expect(claims).toMatchObject({
      iss: `${t.baseUrl}/p/${p.projectId}`,
      aud: p.keys.clientId,
      user_id: 'alice_01.x@corp',
      identity_type: 'alphanumeric',
    });
    expect((claims.exp as number) - (claims.iat as number)).toBe(600);
    // Nothing is mailed for a user id.
    expect(t.mailer.links.some((m) => m.email === 'alice_01.x@corp') || t.mailer.sent.some((m) => m.email === 'alice_01.x@corp')).toBe(false);

    // Coming back before the backend confirmed: not yet.
    const early = await untilApp(browser, await browser.get(claims.continue_to as string));
    expect(early.text).toContain('Your verification is not confirmed yet');
    const renewed = requestOf(early); // the page shown again carries a fresh request; the earlier one is dead
    expect((await confirm(p, { request: signed })).status).toBe(400);

    const answer = await confirm(p, { request: renewed });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toEqual({ user_id: 'alice_01.x@corp', identity_type: 'alphanumeric', redirect_to: claims.continue_to });
    expect((await confirm(p, { request: renewed })).status).toBe(409); // once

    const offer = await untilApp(browser, await browser.get(answer.body.redirect_to as string));
    const { passkey, back } = await register(browser, offer);
    const tokens = await tokensOf(p, back, request.verifier);
    expect(tokens.claims()?.email).toBeUndefined();
    expect(tokens.claims()?.email_verified).toBeUndefined();
    const info = await client.fetchUserInfo(p.config, tokens.access_token, tokens.claims()?.sub as string);
    expect(info.email).toBeUndefined();
    expect(await registeredWith(p.projectId)).toEqual(['custom']);
    const { rows } = await d.db.query('SELECT email, username FROM project_users WHERE project_id = $1', [p.projectId]);
    expect(rows).toEqual([{ email: null, username: 'alice_01.x@corp' }]);
    // Returning: the id (any case), then the passkey alone.
    expect(await signInWithPasskey(p, 'ALICE_01.X@CORP', passkey)).toBe(tokens.claims()?.sub);
    const events = await eventsOf(p.projectId);
    expect(JSON.stringify(events)).not.toContain('alice_01.x@corp');
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'verification.sent', method: 'custom', userId: expect.stringMatching(/^anon-/) }),
        expect.objectContaining({ action: 'verification.confirmed', method: 'custom', clientId: p.keys.clientId }),
        expect.objectContaining({ action: 'verification.failed', reason: 'unknown_request' }),
        expect.objectContaining({ action: 'verification.failed', reason: 'already_confirmed' }),
        expect.objectContaining({ action: 'device.register', verifiedBy: 'custom', userId: tokens.claims()?.sub }),
      ]),
    );
  });

  it('Custom: a user holding a passkey on another device who verifies again here is offered a passkey on this device (docs/decisions/0050)', async () => {
    const p = await customProject();
    const first = new Browser();
    const { page } = await page1(first, p);
    const started = await submitId(first, page, 'bob.member');
    const made = await confirm(p, { request: requestOf(started) });
    const { passkey } = await register(first, await untilApp(first, await first.get(made.body.redirect_to as string)));

    // Another browser: the user id, the passkey page, "Verify instead", the project's backend confirms.
    const other = new Browser();
    const { request, page: again } = await page1(other, p);
    const passkeyPage = await submitId(other, again, 'bob.member');
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const instead = await untilApp(
      other,
      await other.request(formHolding(passkeyPage, 'name="method" value="code"'), { form: { email: 'bob.member', method: 'code' } }),
    );
    const answer = await confirm(p, { request: requestOf(instead) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const offer = await untilApp(other, await other.get(answer.body.redirect_to as string));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const back = await untilApp(other, await other.request(formAction(offer, 1), { form: { skip: '1' } }));
    expect((await tokensOf(p, back, request.verifier)).claims()?.sub).toBe(await signInWithPasskey(p, 'bob.member', passkey));
    const offers = (await eventsOf(p.projectId)).filter((e) => String(e.action).startsWith('passkey.offer.'));
    expect(offers.map((e) => `${String(e.action)} ${String(e.via)}`)).toEqual([
      'passkey.offer.shown custom',
      'passkey.offer.shown custom',
      'passkey.offer.declined custom',
    ]);
  });

  it("Custom: the user lands on the project's Custom Confirmation URL, which sends them on; the label is the project's", async () => {
    const p = await customProject({ confirmationURL: 'https://app.example.com/verified', identityTypeLabel: 'Member number' }, 'email');
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    expect(page.text).toContain('<label for="email">Member number</label>');
    const email = uniqueEmail('custom');
    const custom = await submitId(browser, page, email);
    const answer = await confirm(p, { request: requestOf(custom) });
    expect(answer.status).toBe(200);
    const landing = new URL(answer.body.redirect_to as string);
    expect(`${landing.origin}${landing.pathname}`).toBe('https://app.example.com/verified');
    // The confirmation page (the project's) sends the user on to where the sign-in continues.
    const offer = await untilApp(browser, await browser.get(landing.searchParams.get('continue_to') as string));
    const back = await untilApp(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
    expect(await userInfoOf(p, back, request.verifier)).toMatchObject({ email, email_verified: true });
  });

  it('Custom refuses wrong credentials, another project, a disabled app, forged, foreign and expired requests (4xx, events, nothing confirmed)', async () => {
    const p = await customProject();
    const other = await customProject();
    const browser = new Browser();
    const { page } = await page1(browser, p);
    const signed = requestOf(await submitId(browser, page, 'bob'));
    const otherBrowser = new Browser();
    const { page: otherPage } = await page1(otherBrowser, other);
    const foreign = requestOf(await submitId(otherBrowser, otherPage, 'bob'));

    const noAuth = await confirm(p, { request: signed }, null);
    expect(noAuth.status).toBe(401);
    expect(noAuth.headers.get('www-authenticate')).toContain('Basic');
    expect((await confirm(p, { request: signed }, { id: p.keys.clientId, secret: 'wrong' })).status).toBe(401);
    expect((await confirm(p, { request: signed }, { id: 'no-such-client', secret: 'x' })).status).toBe(401);
    // Another project's application, with its right secret, and that project's own request.
    const crossed = await confirm(p, { request: signed }, { id: other.keys.clientId, secret: other.keys.clientSecret });
    expect(crossed.status).toBe(403);
    expect(crossed.body.error).toBe('unauthorized_client');
    expect((await confirm(p, { request: foreign })).status).toBe(400);
    // Forged: a changed claim, a changed signature, garbage, none.
    const [h, payload, s] = signed.split('.') as [string, string, string];
    const changed = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), user_id: 'mallory' })).toString(
      'base64url',
    );
    for (const forged of [`${h}.${changed}.${s}`, `${h}.${payload}.${s.slice(0, -4)}AAAA`, 'not.a.jwt', '', 42]) {
      expect((await confirm(p, { request: forged })).status).toBe(400);
    }
    expect((await confirm(p, {})).status).toBe(400);
    // A disabled application is refused, though its secret is right.
    await setEnabled(admin, p.appId, false);
    expect((await confirm(p, { request: signed })).status).toBe(401);
    await setEnabled(admin, p.appId, true);
    // Expired after 10 minutes.
    t.clock.advance(11 * MINUTE);
    expect((await confirm(p, { request: signed })).status).toBe(400);

    const { rows } = await d.db.query('SELECT count(*)::int AS n FROM identity_verifications WHERE project_id = $1 AND confirmed_at IS NOT NULL', [
      p.projectId,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
    const reasons = (await eventsOf(p.projectId)).filter((e) => e.action === 'verification.failed').map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['invalid_client', 'other_project', 'invalid_request', 'no_request']));
    // An unknown project answers 404.
    const res = await fetch(`${t.baseUrl}/p/no-such-project/verification/confirm`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(404);
  });

  // ---- Identity type rules ------------------------------------------------------------------

  it('Email Code with a user id cannot verify new users (a page, no mail); Email Link forces the email identity, also when stored otherwise', async () => {
    const codeAlnum = await project({ ...verification('codeEmail'), identityType: 'alphanumeric' });
    const browser = new Browser();
    const { page } = await page1(browser, codeAlnum);
    expect(page.text).toContain('User ID');
    const refused = await submitId(browser, page, 'carol');
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('cannot verify new users with a user ID by email');
    expect(t.mailer.count('carol')).toBe(0);

    // The console's rule (spec §4) through the API …
    const link = await project({ ...verification('standardEmail'), identityType: 'alphanumeric' });
    expect((await getProject(admin, link.projectId)).identityType).toBe('email');
    // … and the issuer's own, for settings stored without it.
    await d.db.query(`UPDATE projects SET settings = jsonb_set(settings, '{identityType}', '"alphanumeric"') WHERE id = $1`, [link.projectId]);
    const { page: linkPage } = await page1(new Browser(), link);
    expect(linkPage.text).toContain('type="email"');
    expect(linkPage.text).toContain('<label for="email">Email</label>');
  });

  it('Email Code stays as it was at a project, and the console’s own /idp provider still signs in by code', async () => {
    const p = await project(verification('codeEmail'));
    const email = uniqueEmail('code');
    const browser = new Browser();
    const { page } = await page1(browser, p);
    expect(page.text).toContain('We will email you a 6-digit code');
    const codePage = await submitId(browser, page, email);
    expect(codePage.text).toContain('We sent a 6-digit code to');
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);

    const consoleUser = uniqueEmail('console');
    const login = await signInThroughProvider(t, new Browser(), consoleUser);
    expect(login.status, login.text).toBe(200);
    expect(t.mailer.links.some((m) => m.email === consoleUser)).toBe(false);
  });
});
