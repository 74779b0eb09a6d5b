import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, type ApplicationKeys } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, REDIRECT } from './support/fixtures.ts';
import { resolveLocalNames } from './support/localhost-names.ts';
import { authorizationRequest, untilApp } from './support/relying-party.ts';
import { discoverAction, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

resolveLocalNames();

/**
 * docs/decisions/0049: a project with an own host served at its custom domain, in a browser without
 * Related Origin Requests. The pages offer the own host's rpID (data-options) and the custom
 * domain's (data-options-local); the software authenticator plays the browser that picks the
 * latter. A passkey is accepted only for its stored rpID, and only while the project allows it.
 */

type Creation = CreationOptions & { rp: { id: string }; user: { name: string } };
type Request = RequestOptions & { rpId: string };

/** The options a page carries for the custom domain's own rpID (data-options-local), or null. */
function localOptions<T>(html: string): T | null {
  const m = /data-options-local="([^"]*)"/.exec(html);
  if (!m) return null;
  return JSON.parse((m[1] as string).replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&')) as T;
}

interface App {
  projectId: string;
  keys: ApplicationKeys;
  config: client.Configuration;
}

describeEachDatabase('passkeys at a custom domain without Related Origin Requests', (d) => {
  const t = useTestApp(d, { listen: true, env: { ISSUER_DOMAIN: 'localhost', PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let global: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    global = await signedInAccount(t, d.db, ['glb::projects']);
  });
  const port = () => new URL(t.baseUrl).port;
  const ownOrigin = (projectId: string) => `http://${projectId}.localhost:${port()}`;
  const discover = (issuer: string, keys: ApplicationKeys) =>
    client.discovery(new URL(issuer), keys.clientId, keys.clientSecret, undefined, { execute: [client.allowInsecureRequests] });

  /** Sets the project's custom domain ('' removes it); answers the app configured again at its issuer. */
  async function setDomain(app: App, customDomain: string): Promise<App> {
    const current = (await global.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: app.projectId }))).body;
    const put = await global.api.put(apiPath(api.updateProject, { project: app.projectId }), { ...current, customDomain });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    return { ...app, config: await discover(customDomain || ownOrigin(app.projectId), app.keys) };
  }

  async function newApp(domain: (projectId: string) => string): Promise<App & { custom: string }> {
    const projectId = await createProject(admin);
    const keys = await createKeys(admin, await createApp(admin, projectId));
    const custom = domain(projectId);
    return { ...(await setDomain({ projectId, keys, config: await discover(ownOrigin(projectId), keys) }, custom)), custom };
  }

  async function open(browser: Browser, app: App) {
    const { url, verifier } = await authorizationRequest(app);
    return { verifier, page1: await untilApp(browser, await browser.get(url.href)) };
  }

  /** After the emailed code at `app`: the passkey offer (its page). */
  async function offerAfterCode(app: App, email: string) {
    const browser = new Browser();
    const { verifier, page1 } = await open(browser, app);
    const codePage = await submitEmail(browser, page1, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    return { browser, verifier, offer };
  }

  /** A new user who, in a browser without Related Origin Requests, makes a passkey at the custom domain. */
  async function userWithLocalPasskey(app: App & { custom: string }): Promise<{ email: string; passkey: Passkey; sub: string }> {
    const email = uniqueEmail('local-rp');
    const { browser, verifier, offer } = await offerAfterCode(app, email);
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    // Both: the own host's rpID (Related Origin Requests) and the custom domain's own, one challenge.
    const own = pageOptions<Creation>(offer.text);
    const local = localOptions<Creation>(offer.text);
    expect(own.rp.id).toBe(`${app.projectId}.localhost`);
    expect(local).toMatchObject({ rp: { id: new URL(app.custom).hostname }, challenge: own.challenge, user: { name: email } });
    const { passkey, response } = createPasskey(local as Creation, app.custom);
    const done = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(app.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    const { rows } = await d.db.query<{ rp_id: string }>('SELECT rp_id FROM devices WHERE project_id = $1 AND id = $2', [app.projectId, passkey.id]);
    expect(rows).toEqual([{ rp_id: new URL(app.custom).hostname }]);
    return { email, passkey, sub: tokens.claims()?.sub as string };
  }

  /** Page 1's discoverable request answered with `passkey` for `rpId` at `origin`. */
  async function answerPage1(app: App, passkey: Passkey, pick: (page1: BrowserResponse) => Request, origin: string) {
    const browser = new Browser();
    const { verifier, page1 } = await open(browser, app);
    const answer = usePasskey(passkey, pick(page1), origin);
    const done = await untilApp(browser, await browser.request(discoverAction(page1), { form: { response: JSON.stringify(answer) } }));
    return { done, verifier, page1 };
  }
  const local = (page1: BrowserResponse) => localOptions<Request>(page1.text) as Request;

  const lastPasskeyEvent = async (projectId: string) =>
    (
      await d.db.query<{ event_status: string; details: Record<string, unknown> }>(
        `SELECT event_status, details FROM audit_events WHERE project_id = $1 AND details->>'method' = 'passkey' ORDER BY id DESC LIMIT 1`,
        [projectId],
      )
    ).rows[0];

  const customOf = (projectId: string) => `http://signin-${projectId}.acme.test:${port()}`;

  it("page 1 at the custom domain offers both rpIDs (one challenge); the own host's page offers one", async () => {
    const app = await newApp(customOf);
    const { page1 } = await open(new Browser(), app);
    expect(page1.url.startsWith(`${app.custom}/interaction/`)).toBe(true);
    const own = pageOptions<Request>(page1.text);
    expect(own.rpId).toBe(`${app.projectId}.localhost`);
    expect(local(page1)).toMatchObject({ rpId: `signin-${app.projectId}.acme.test`, challenge: own.challenge });
    // Without a custom domain, only the own host's rpID.
    const plain = await setDomain(app, '');
    const { page1: ownPage } = await open(new Browser(), plain);
    expect(ownPage.url.startsWith(`${ownOrigin(app.projectId)}/interaction/`)).toBe(true);
    expect(localOptions(ownPage.text)).toBeNull();
  });

  it('a passkey made for the custom domain there signs in there, with no address typed; the same sub', async () => {
    const app = await newApp(customOf);
    const user = await userWithLocalPasskey(app);
    const { done, verifier } = await answerPage1(app, user.passkey, local, app.custom);
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(app.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    expect(tokens.claims()).toMatchObject({ iss: app.custom, sub: user.sub });
    expect(await lastPasskeyEvent(app.projectId)).toMatchObject({ event_status: 'success', details: { mpinId: user.passkey.id } });

    // Asked for JSON (the page script where the browser has the Signal API, docs/decisions/0048): the
    // accepted passkeys of each rpID, under that rpID.
    const browser = new Browser();
    const { page1 } = await open(browser, app);
    const json = await browser.request(discoverAction(page1), {
      form: { response: JSON.stringify(usePasskey(user.passkey, local(page1), app.custom)) },
      headers: { accept: 'application/json' },
    });
    expect(json.status, json.text).toBe(200);
    const signals = json.json<{ signals: Array<{ signalName: string; rpID: string; allAcceptedCredentialIDs?: string[] }> }>().signals;
    expect(signals.filter((x) => x.signalName === 'allAcceptedCredentials').map((x) => [x.rpID, x.allAcceptedCredentialIDs])).toEqual([
      [`${app.projectId}.localhost`, []],
      [new URL(app.custom).hostname, [user.passkey.id]],
    ]);
  });

  it("it is refused for the own host's rpID, and at the own host's origin", async () => {
    const app = await newApp(customOf);
    const user = await userWithLocalPasskey(app);
    // Answered for the own host's rpID: not the one it was made for.
    const wrongRp = await answerPage1(app, user.passkey, (page1) => pageOptions<Request>(page1.text), app.custom);
    expect(wrongRp.done.status).toBe(403);
    expect(wrongRp.done.text).toContain('This passkey is not for this address');
    expect(await lastPasskeyEvent(app.projectId)).toMatchObject({ event_status: 'denied', details: { reason: 'wrong_rp_id' } });
    // Its own rpID, but from the own host's origin: no related origins are published for the custom domain's rpID.
    const wrongOrigin = await answerPage1(app, user.passkey, local, ownOrigin(app.projectId));
    expect(wrongOrigin.done.status).toBe(400);
    expect(await lastPasskeyEvent(app.projectId)).toMatchObject({ event_status: 'failed', details: { reason: 'not_verified' } });
  });

  it("a custom-domain passkey of one project is refused on another's page", async () => {
    const x = await newApp(customOf);
    const y = await newApp(customOf);
    const stranger = await userWithLocalPasskey(x);
    const refused = await answerPage1(y, stranger.passkey, local, y.custom);
    expect(refused.done.status).toBe(400);
    expect(refused.done.text).toContain('That passkey is not registered here');
    expect(await lastPasskeyEvent(y.projectId)).toMatchObject({ event_status: 'failed', details: { reason: 'unknown_credential' } });
    // Even answered for y's own rpID from y's domain (a browser would not offer it there).
    const forged = await answerPage1(y, stranger.passkey, (page1) => pageOptions<Request>(page1.text), y.custom);
    expect(forged.done.status).toBe(400);
  });

  it('after the custom domain changes, or is removed, that passkey is refused', async () => {
    const app = await newApp(customOf);
    const user = await userWithLocalPasskey(app);
    const elsewhere = await setDomain(app, `http://login-${app.projectId}.acme.test:${port()}`);
    // The new domain's page: the browser asks for the new domain's rpID; a passkey answered for the old one is refused.
    const oldRp = (page1: BrowserResponse) => ({ ...local(page1), rpId: new URL(app.custom).hostname });
    const changed = await answerPage1(elsewhere, user.passkey, oldRp, `http://login-${app.projectId}.acme.test:${port()}`);
    expect(changed.done.status).toBe(403);
    expect(changed.done.text).toContain('This passkey is not for this address');
    // Signed at the old domain's origin: refused too.
    expect((await answerPage1(elsewhere, user.passkey, oldRp, app.custom)).done.status).toBe(403);
    // No custom domain: the own host's page, the old domain's passkey refused.
    const removed = await setDomain(app, '');
    const gone = await answerPage1(
      removed,
      user.passkey,
      (page1) => ({ ...pageOptions<Request>(page1.text), rpId: new URL(app.custom).hostname }),
      app.custom,
    );
    expect(gone.done.status).toBe(403);
    expect(await lastPasskeyEvent(app.projectId)).toMatchObject({
      event_status: 'denied',
      details: { reason: 'wrong_rp_id', mpinId: user.passkey.id },
    });
    // Set back: it signs in again (the project allows that rpID again).
    const back = await setDomain(app, app.custom);
    const again = await answerPage1(back, user.passkey, local, app.custom);
    expect(again.done.location ?? '', again.done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
  });

  it("a user whose passkey is the own host's is offered one at the custom domain after the code (the browser may lack Related Origin Requests)", async () => {
    const projectId = await createProject(admin);
    const keys = await createKeys(admin, await createApp(admin, projectId));
    const onOwn: App = { projectId, keys, config: await discover(ownOrigin(projectId), keys) };
    const email = uniqueEmail('own-then-custom');
    const first = await offerAfterCode(onOwn, email);
    expect(localOptions(first.offer.text)).toBeNull();
    const made = createPasskey(pageOptions<Creation>(first.offer.text), ownOrigin(projectId));
    await untilApp(first.browser, await first.browser.request(formAction(first.offer), { form: { response: JSON.stringify(made.response) } }));
    // At the own host, a later code sign-in offers one on this device again (docs/decisions/0050: after
    // every fallback sign-in), with the one they have excluded, so the authenticator holding it declines.
    const again = (await offerAfterCode(onOwn, email)).offer;
    expect(isPasskeyOffer(again)).toBe(true);
    expect(localOptions(again.text)).toBeNull();
    expect(pageOptions<Creation & { excludeCredentials: Array<{ id: string }> }>(again.text).excludeCredentials.map((c) => c.id)).toEqual([
      made.passkey.id,
    ]);

    const custom = customOf(projectId);
    const moved = { ...(await setDomain(onOwn, custom)), custom };
    const { browser, offer } = await offerAfterCode(moved, email);
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    // The existing passkey excluded from either creation; a browser with Related Origin Requests would refuse to make it again.
    expect(pageOptions<Creation & { excludeCredentials: Array<{ id: string }> }>(offer.text).excludeCredentials.map((c) => c.id)).toEqual([
      made.passkey.id,
    ]);
    const { passkey, response } = createPasskey(localOptions<Creation>(offer.text) as Creation, custom);
    const done = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const { rows } = await d.db.query<{ id: string; rp_id: string }>('SELECT id, rp_id FROM devices WHERE project_id = $1 ORDER BY created_at, id', [
      projectId,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { id: made.passkey.id, rp_id: `${projectId}.localhost` },
        { id: passkey.id, rp_id: `signin-${projectId}.acme.test` },
      ]),
    );
    // Both sign in at the custom domain: the own host's (Related Origin Requests) and the new one.
    expect((await answerPage1(moved, made.passkey, (page1) => pageOptions<Request>(page1.text), custom)).done.location).toMatch(/^https:\/\/app/);
    expect((await answerPage1(moved, passkey, local, custom)).done.location).toMatch(/^https:\/\/app/);
    // A further code sign-in there is offered one again (0050), both passkeys excluded from either rpID's creation.
    const next = (await offerAfterCode(moved, email)).offer;
    expect(isPasskeyOffer(next)).toBe(true);
    expect(
      (
        localOptions<Creation & { excludeCredentials: Array<{ id: string }> }>(next.text) as Creation & { excludeCredentials: Array<{ id: string }> }
      ).excludeCredentials
        .map((c) => c.id)
        .sort(),
    ).toEqual([made.passkey.id, passkey.id].sort());
  });

  it("the account page at the custom domain: its new passkey may be the custom domain's, stored so; it signals both rpIDs", async () => {
    const app = await newApp(customOf);
    const user = await userWithLocalPasskey(app);
    const browser = new Browser();
    const follow = async (first: Promise<BrowserResponse>) => (await browser.follow(await first)).at(-1) as BrowserResponse;
    // The account page signs in through the issuer: page 1 at the custom domain, its local request answered.
    const page1 = await follow(browser.get(`${app.custom}/account`));
    const answer = usePasskey(user.passkey, local(page1), app.custom);
    const account = await follow(browser.request(discoverAction(page1), { form: { response: JSON.stringify(answer) } }));
    expect(account.url).toBe(`${app.custom}/account`);
    expect(account.status, account.text).toBe(200);
    const create = /<a class="button secondary" href="([^"]+)">Create a passkey<\/a>/.exec(account.text)?.[1] as string;
    const newPage = await browser.get(new URL(create, account.url).href);
    expect(pageOptions<Creation>(newPage.text).rp.id).toBe(`${app.projectId}.localhost`);
    const creation = localOptions<Creation>(newPage.text) as Creation;
    expect(creation.rp.id).toBe(new URL(app.custom).hostname);
    const { passkey: second, response } = createPasskey(creation, app.custom);
    const form = /<form[^>]*data-webauthn="register"[^>]*>([\s\S]*?)<\/form>/.exec(newPage.text)?.[1] ?? '';
    const fields = Object.fromEntries(
      [...form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1] as string, f[2] as string]),
    );
    const added = await follow(browser.request(formAction(newPage), { form: { ...fields, response: JSON.stringify(response) } }));
    expect(added.text).toContain('The passkey was created.');
    const { rows } = await d.db.query<{ rp_id: string }>('SELECT rp_id FROM devices WHERE project_id = $1 AND id = $2', [app.projectId, second.id]);
    expect(rows).toEqual([{ rp_id: new URL(app.custom).hostname }]);
    // allAcceptedCredentials per rpID: none of the own host's, both of the custom domain's.
    const accepted = [...added.text.matchAll(/data-signal="allAcceptedCredentials" data-signal-options="([^"]*)"/g)].map(
      (m) => JSON.parse((m[1] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as { rpID: string; allAcceptedCredentialIDs: string[] },
    );
    expect(accepted.map((a) => [a.rpID, [...a.allAcceptedCredentialIDs].sort()])).toEqual([
      [`${app.projectId}.localhost`, []],
      [new URL(app.custom).hostname, [user.passkey.id, second.id].sort()],
    ]);
  });

  it('a registration answered for an rpID not offered, or for the custom rpID from the own origin, stores nothing', async () => {
    const app = await newApp(customOf);
    const email = uniqueEmail('bad-registration');
    const { browser, offer } = await offerAfterCode(app, email);
    const own = pageOptions<Creation>(offer.text);
    const count = async () =>
      Number((await d.db.query<{ n: string }>('SELECT count(*) AS n FROM devices WHERE project_id = $1', [app.projectId])).rows[0]?.n);
    const elsewhere = createPasskey({ ...own, rp: { id: 'acme.test' } }, app.custom);
    const refused = await browser.request(formAction(offer), { form: { response: JSON.stringify(elsewhere.response) } });
    expect(refused.status).toBe(400);
    const again = localOptions<Creation>(refused.text) as Creation;
    const fromOwn = createPasskey(again, ownOrigin(app.projectId));
    expect((await browser.request(formAction(refused), { form: { response: JSON.stringify(fromOwn.response) } })).status).toBe(400);
    expect(await count()).toBe(0);
  });
});
