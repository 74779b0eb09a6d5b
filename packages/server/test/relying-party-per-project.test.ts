import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type Issuer, type SettingsHistory } from '@latchkey/domain';
import { ApiClient, signedInAccount, uniqueEmail, useTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, databaseFingerprint, REDIRECT, storeDevice } from './support/fixtures.ts';
import { resolveLocalNames } from './support/localhost-names.ts';
import { authorizationRequest, untilApp } from './support/relying-party.ts';
import { DISCOVERIES_FAILED_PER_CLIENT } from '../src/oidc/passkeys.ts';
import { declinePasskey, discoverAction, emailAction, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

resolveLocalNames();

/** A project's application, and openid-client configured for it by discovery at `issuer`. */
interface App {
  projectId: string;
  keys: ApplicationKeys;
  config: client.Configuration;
}

/** An authorization request's parameters: code + PKCE S256 back to REDIRECT (the verifier is not needed where no code is exchanged). */
const authorizationParams = () => ({
  redirect_uri: REDIRECT,
  scope: 'openid email',
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
});

async function discover(issuer: string, keys: ApplicationKeys): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), keys.clientId, keys.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
}

/** An emailed-code sign-in of `email` at the app (the passkey offer declined); answers the ID token's claims. */
async function signInByCode(t: TestApp, browser: Browser, app: App, email: string) {
  const { url, verifier } = await authorizationRequest(app);
  const page1 = await untilApp(browser, await browser.get(url.href));
  const codePage = await submitEmail(browser, page1, email);
  let last = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
  if (isPasskeyOffer(last)) last = await untilApp(browser, await declinePasskey(browser, last));
  expect(last.location ?? '', last.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
  const tokens = await client.authorizationCodeGrant(app.config, new URL(last.location as string), { pkceCodeVerifier: verifier });
  return { page1, claims: tokens.claims() as { iss: string; sub: string } };
}

// docs/decisions/0047: a project's issuer on a host of its own, {project}.localhost:{PORT} here.
describeEachDatabase('a relying party per project: hosts and issuer moves', (d) => {
  // The server as the default configuration runs it at localhost: ISSUER_DOMAIN=localhost.
  const t = useTestApp(d, { listen: true, env: { ISSUER_DOMAIN: 'localhost', PROJECTS_PER_ACCOUNT: '100' } });
  // The same deployment before it had an issuer domain: the projects it made stay on the shared path.
  const before = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });
  const port = () => new URL(t.baseUrl).port;
  const ownOrigin = (projectId: string) => `http://${projectId}.localhost:${port()}`;
  const issuerOf = async (projectId: string) => (await admin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body;
  /** An administrator calling the API of the deployment before it had an issuer domain (one database). */
  const beforeAdminOf = async (): Promise<SignedIn> => {
    const signed = await signedInAccount(t, d.db);
    return { ...signed, api: new ApiClient(before.app, signed.session) };
  };
  const move = (by: SignedIn, projectId: string, body: unknown = { to: 'ownHost' }) =>
    by.api.post<Issuer & { error?: string }>(apiPath(api.moveIssuer, { project: projectId }), body);

  it("a new project's issuer is its own host: discovery there, the shared path sends there", async () => {
    const projectId = await createProject(admin);
    expect(projectId).toMatch(/^[a-z2-7]{16}$/);
    expect(await issuerOf(projectId)).toMatchObject({
      address: ownOrigin(projectId),
      placement: 'ownHost',
      own_host: ownOrigin(projectId),
      passkey_domain: `${projectId}.localhost`,
      moves: [],
    });
    const keys = await createKeys(admin, await createApp(admin, projectId));
    expect(keys.issuer).toBe(ownOrigin(projectId));

    const config = await discover(ownOrigin(projectId), keys);
    expect(config.serverMetadata().issuer).toBe(ownOrigin(projectId));
    expect(config.serverMetadata().token_endpoint).toBe(`${ownOrigin(projectId)}/token`);

    // The shared path answers 307 to the same path at the own host.
    const old = await fetch(`${t.baseUrl}${projectIssuerPath(projectId)}/.well-known/openid-configuration?x=1`, { redirect: 'manual' });
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe(`${ownOrigin(projectId)}/.well-known/openid-configuration?x=1`);

    // A user signs in there; the ID token names the own host as its issuer.
    const { page1, claims } = await signInByCode(t, new Browser(), { projectId, keys, config }, uniqueEmail('own-host'));
    expect(page1.url.startsWith(`${ownOrigin(projectId)}/interaction/`)).toBe(true);
    expect(claims.iss).toBe(ownOrigin(projectId));

    // The console and its API are not served on a project's host.
    expect((await fetch(`${ownOrigin(projectId)}/api/config`)).status).toBe(404);
  });

  it("an issuer move: the project's administrator moves a project made before to its own host; its app's users sign in there", async () => {
    const beforeAdmin = await beforeAdminOf();
    const projectId = await createProject(beforeAdmin);
    // Its issuer stays where it was, also as the server with an issuer domain answers it.
    beforeAdmin.api = new ApiClient(t.app, beforeAdmin.session);
    const shared = `${t.baseUrl}${projectIssuerPath(projectId)}`;
    // The console reads where it is and that a move is offered (docs/decisions/0047).
    const unmoved = await beforeAdmin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }));
    expect(unmoved.body).toMatchObject({
      address: shared,
      placement: 'sharedPath',
      own_host: ownOrigin(projectId),
      passkey_domain: '127.0.0.1',
      moves: ['ownHost'],
    });
    // The read-only fields a save sends back are not stored: the move stays offered.
    const saved = await beforeAdmin.api.put<Issuer>(apiPath(api.updateIssuer, { project: projectId }), {
      ...unmoved.body,
      placement: 'ownHost',
      own_host: 'http://elsewhere.test',
      passkey_domain: 'elsewhere.test',
      moves: [],
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ placement: 'sharedPath', own_host: ownOrigin(projectId), passkey_domain: '127.0.0.1', moves: ['ownHost'] });
    const { rows } = await d.db.query<{ issuer: Record<string, unknown> }>('SELECT issuer FROM projects WHERE id = $1', [projectId]);
    expect(rows[0]?.issuer).not.toHaveProperty('placement');
    expect(rows[0]?.issuer).not.toHaveProperty('moves');
    // A server without an issuer domain offers none.
    const beforeServer = new ApiClient(before.app, beforeAdmin.session);
    expect((await beforeServer.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body).toMatchObject({ own_host: '', moves: [] });
    const keys = await createKeys(beforeAdmin, await createApp(beforeAdmin, projectId));
    const email = uniqueEmail('mover');
    const first = await signInByCode(t, new Browser(), { projectId, keys, config: await discover(shared, keys) }, email);
    expect(first.claims.iss).toBe(shared);

    // Someone who may only revoke its devices may not (403), one of no permission there does not see it (404,
    // docs/decisions/0004); a body that names no move is a 400; nothing is stored.
    const stranger = await signedInAccount(t, d.db);
    const revoker = await signedInAccount(t, d.db, [`cst:${projectId}:revocation`]);
    const unchanged = await databaseFingerprint(d.db);
    expect((await move(stranger, projectId)).status).toBe(404);
    expect((await move(revoker, projectId)).status).toBe(403);
    expect((await move(beforeAdmin, projectId, { to: 'somewhere' })).status).toBe(400);
    expect((await move(beforeAdmin, projectId, {})).status).toBe(400);
    // A server without an issuer domain has no host to move to (400 on the field).
    const withoutDomain = await move({ ...beforeAdmin, api: new ApiClient(before.app, beforeAdmin.session) }, projectId);
    expect(withoutDomain.status).toBe(400);
    expect(withoutDomain.body).toMatchObject({ error: 'validation_failed', issues: [{ field: 'to' }] });
    expect(await databaseFingerprint(d.db)).toEqual(unchanged);

    const moved = await move(beforeAdmin, projectId);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ address: ownOrigin(projectId), placement: 'ownHost', own_host: ownOrigin(projectId), moves: [] });
    expect((await beforeAdmin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body.address).toBe(ownOrigin(projectId));
    expect((await move(beforeAdmin, projectId)).status).toBe(409);

    // The settings history names the move.
    const history = await beforeAdmin.api.get<SettingsHistory>(`${apiPath(api.listSettingsHistory, { project: projectId })}?page=oidc`);
    expect(history.body.list[0]).toMatchObject({ action: 'issuer.move', changes: { address: { before: shared, after: ownOrigin(projectId) } } });

    // The old address sends discovery (and a browser's old sign-in link) to the new one.
    const old = await fetch(`${shared}/.well-known/openid-configuration`, { redirect: 'manual' });
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe(`${ownOrigin(projectId)}/.well-known/openid-configuration`);

    // The app, configured again by discovery at the new issuer with the same credentials, signs the same user in: same sub.
    const config = await discover(ownOrigin(projectId), keys);
    const again = await signInByCode(t, new Browser(), { projectId, keys, config }, email);
    expect(again.claims).toMatchObject({ iss: ownOrigin(projectId), sub: first.claims.sub });
  });

  it('after a move, a passkey made under the shared host is not asked for; the user verifies by code and is offered one for the new relying party', async () => {
    const beforeAdmin = await beforeAdminOf();
    const projectId = await createProject(beforeAdmin);
    beforeAdmin.api = new ApiClient(t.app, beforeAdmin.session);
    const keys = await createKeys(beforeAdmin, await createApp(beforeAdmin, projectId));
    const shared = `${t.baseUrl}${projectIssuerPath(projectId)}`;
    const email = uniqueEmail('old-passkey');
    // On the shared path: address, code, "Create a passkey" under PUBLIC_URL's host.
    const sharedApp = { projectId, keys, config: await discover(shared, keys) };
    const browser = new Browser();
    const page1 = await untilApp(browser, await browser.get(client.buildAuthorizationUrl(sharedApp.config, authorizationParams()).href));
    const codePage = await submitEmail(browser, page1, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    const creation = pageOptions<CreationOptions & { rp: { id: string } }>(offer.text);
    expect(creation.rp.id).toBe('127.0.0.1');
    const { passkey, response } = createPasskey(creation, t.baseUrl);
    await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    // Identifier-first there: the passkey is asked for, and refused when answered for another rpID.
    const again = new Browser();
    const page1b = await untilApp(again, await again.get(client.buildAuthorizationUrl(sharedApp.config, authorizationParams()).href));
    const passkeyPage = await submitEmail(again, page1b, email);
    expect(passkeyPage.text).toContain('Sign in with a passkey');
    const wrong = usePasskey(passkey, { ...pageOptions<RequestOptions>(passkeyPage.text), rpId: 'elsewhere.test' }, t.baseUrl);
    const refused = await again.request(formAction(passkeyPage), { form: { response: JSON.stringify(wrong) } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This passkey is not for this address');

    expect((await move(beforeAdmin, projectId)).status).toBe(200);
    const movedApp = { projectId, keys, config: await discover(ownOrigin(projectId), keys) };
    const after = new Browser();
    const ownPage1 = await untilApp(after, await after.get(client.buildAuthorizationUrl(movedApp.config, authorizationParams()).href));
    expect(pageOptions<RequestOptions & { rpId: string }>(ownPage1.text).rpId).toBe(`${projectId}.localhost`);
    const ownCode = await submitEmail(after, ownPage1, email);
    const newOffer = await untilApp(after, await after.request(formAction(ownCode), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(newOffer), newOffer.text).toBe(true);
    expect(pageOptions<CreationOptions & { rp: { id: string } }>(newOffer.text).rp.id).toBe(`${projectId}.localhost`);
  });

  it('a closed project is not moved (409 project_closed, nothing stored)', async () => {
    const beforeAdmin = await beforeAdminOf();
    const projectId = await createProject(beforeAdmin);
    beforeAdmin.api = new ApiClient(t.app, beforeAdmin.session);
    expect((await beforeAdmin.api.put(apiPath(api.updateProjectMeta, { project: projectId }), { enabled: false })).status).toBe(200);
    const unchanged = await databaseFingerprint(d.db);
    const refused = await move(beforeAdmin, projectId);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('project_closed');
    expect(await databaseFingerprint(d.db)).toEqual(unchanged);
  });

  it('a custom domain under the issuer domain is refused; a project with its own host and a custom domain is served at the custom domain', async () => {
    const global = await signedInAccount(t, d.db, ['glb::projects']);
    const projectId = await createProject(admin);
    const current = (await global.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: projectId }))).body;
    const put = (customDomain: string) => global.api.put(apiPath(api.updateProject, { project: projectId }), { ...current, customDomain });
    const other = await createProject(admin);
    expect((await put(`http://${other}.localhost:${port()}`)).status).toBe(400);
    expect((await put(`http://localhost:${port()}`)).status).toBe(400);

    const custom = `http://login-${projectId}.acme.test:${port()}`;
    expect((await put(custom)).status).toBe(200);
    expect(await issuerOf(projectId)).toMatchObject({
      address: custom,
      placement: 'customDomain',
      own_host: ownOrigin(projectId),
      passkey_domain: `${projectId}.localhost`,
      moves: [],
    });
    const keys = await createKeys(admin, await createApp(admin, projectId));
    expect((await discover(custom, keys)).serverMetadata().issuer).toBe(custom);
    // The own host sends to the custom domain, as the shared path does.
    const old = await fetch(`${ownOrigin(projectId)}/auth?client_id=x`, { redirect: 'manual' });
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe(`${custom}/auth?client_id=x`);
    const shared = await fetch(`${t.baseUrl}${projectIssuerPath(projectId)}/auth`, { redirect: 'manual' });
    expect(shared.headers.get('location')).toBe(`${custom}/auth`);
  });

  it("GET /.well-known/webauthn on a project's own host lists its origins; 404 elsewhere", async () => {
    const global = await signedInAccount(t, d.db, ['glb::projects']);
    const projectId = await createProject(admin);
    const res = await fetch(`${ownOrigin(projectId)}/.well-known/webauthn`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await res.json()).toEqual({ origins: [ownOrigin(projectId)] });

    const current = (await global.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: projectId }))).body;
    const custom = `http://id-${projectId}.acme.test:${port()}`;
    expect((await global.api.put(apiPath(api.updateProject, { project: projectId }), { ...current, customDomain: custom })).status).toBe(200);
    expect(await (await fetch(`${ownOrigin(projectId)}/.well-known/webauthn`)).json()).toEqual({ origins: [ownOrigin(projectId), custom] });

    // Not on the custom domain, not on PUBLIC_URL, not on another project's shared path.
    expect((await fetch(`${custom}/.well-known/webauthn`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/.well-known/webauthn`)).status).toBe(404);
    const shared = await createProject(await beforeAdminOf());
    expect((await fetch(`${t.baseUrl}${projectIssuerPath(shared)}/.well-known/webauthn`)).status).toBe(404);
  });
});

/** The options of page 1's discoverable request (docs/decisions/0047). */
type DiscoverOptions = RequestOptions & { rpId: string; allowCredentials?: unknown[] };

// docs/decisions/0047: passkey first on a project's own relying party.
describeEachDatabase('a relying party per project: discoverable passkeys', (d) => {
  const t = useTestApp(d, { listen: true, env: { ISSUER_DOMAIN: 'localhost', PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });
  const ownOrigin = (projectId: string) => `http://${projectId}.localhost:${new URL(t.baseUrl).port}`;

  async function newApp(): Promise<App> {
    const projectId = await createProject(admin);
    const keys = await createKeys(admin, await createApp(admin, projectId));
    return { projectId, keys, config: await discover(ownOrigin(projectId), keys) };
  }

  /** Opens the app's authorization request in `browser`: page 1, and the PKCE verifier. */
  async function open(browser: Browser, app: App) {
    const { url, verifier } = await authorizationRequest(app);
    return { verifier, page1: await untilApp(browser, await browser.get(url.href)) };
  }

  /** A new user: address, emailed code, "Create a passkey" at the project's own relying party. */
  async function newUserWithPasskey(app: App): Promise<{ email: string; passkey: Passkey; sub: string }> {
    const email = uniqueEmail('discoverable');
    const browser = new Browser();
    const { verifier, page1 } = await open(browser, app);
    const codePage = await submitEmail(browser, page1, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const creation = pageOptions<CreationOptions & { rp: { id: string }; user: { name: string }; authenticatorSelection: { residentKey: string } }>(
      offer.text,
    );
    // Discoverable, named by the identity, under the project's own host's name.
    expect(creation.rp.id).toBe(`${app.projectId}.localhost`);
    expect(creation.authenticatorSelection.residentKey).toBe('required');
    expect(creation.user.name).toBe(email);
    const { passkey, response } = createPasskey(creation, ownOrigin(app.projectId));
    const done = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    const tokens = await client.authorizationCodeGrant(app.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    const sub = tokens.claims()?.sub as string;
    // The user handle is the sub.
    expect(Buffer.from(creation.user.id, 'base64url').toString()).toBe(sub);
    const { rows } = await d.db.query<{ rp_id: string }>('SELECT rp_id FROM devices WHERE project_id = $1 AND id = $2', [app.projectId, passkey.id]);
    expect(rows).toEqual([{ rp_id: `${app.projectId}.localhost` }]);
    return { email, passkey, sub };
  }

  const passkeyEvents = async (projectId: string) =>
    (
      await d.db.query<{ event_status: string; details: Record<string, unknown> }>(
        `SELECT event_status, details FROM audit_events WHERE project_id = $1 AND details->>'method' = 'passkey' ORDER BY id`,
        [projectId],
      )
    ).rows;

  it('a returning user signs in with a passkey from page 1, no address typed; the app gets the same sub', async () => {
    const app = await newApp();
    const user = await newUserWithPasskey(app);
    const browser = new Browser();
    const { verifier, page1 } = await open(browser, app);
    // Page 1 carries a discoverable request: the own host's rpID, no credentials listed; the field autofills passkeys.
    const options = pageOptions<DiscoverOptions>(page1.text);
    expect(options.rpId).toBe(`${app.projectId}.localhost`);
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(page1.text).toMatch(/<input id="email"[^>]*autocomplete="username webauthn"/);
    expect(page1.text).toContain('<script defer src="/idp/assets/passkey.js">');

    const answer = usePasskey(user.passkey, options, ownOrigin(app.projectId));
    const done = await untilApp(browser, await browser.request(discoverAction(page1), { form: { response: JSON.stringify(answer) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(app.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    expect(tokens.claims()).toMatchObject({ iss: ownOrigin(app.projectId), sub: user.sub });
    expect((await passkeyEvents(app.projectId)).at(-1)).toMatchObject({ event_status: 'success', details: { mpinId: user.passkey.id } });

    // The session is linked to the passkey: revoking it ends the provider sessions it began (its
    // creation's, in another browser, and this sign-in's).
    const revoked = await admin.api.post(apiPath(api.revokeDevice, { project: app.projectId, mpinId: user.passkey.id }), { reason: 'PORTAL_REVOKE' });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    const { rows } = await d.db.query<{ details: { sessionsEnded: number } }>(
      `SELECT details FROM audit_events WHERE project_id = $1 AND details->>'action' = 'device.revoke'`,
      [app.projectId],
    );
    expect(rows.map((r) => r.details.sessionsEnded)).toEqual([2]);
  });

  it('with a custom domain, passkeys made on the own host keep working there (rpID = the own host, Related Origin Requests)', async () => {
    const app = await newApp();
    const user = await newUserWithPasskey(app);
    const global = await signedInAccount(t, d.db, ['glb::projects']);
    const current = (await global.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: app.projectId }))).body;
    const custom = `http://signin-${app.projectId}.acme.test:${new URL(t.baseUrl).port}`;
    expect((await global.api.put(apiPath(api.updateProject, { project: app.projectId }), { ...current, customDomain: custom })).status).toBe(200);
    const moved: App = { ...app, config: await discover(custom, app.keys) };
    const browser = new Browser();
    const { verifier, page1 } = await open(browser, moved);
    expect(page1.url.startsWith(`${custom}/interaction/`)).toBe(true);
    const options = pageOptions<DiscoverOptions>(page1.text);
    expect(options.rpId).toBe(`${app.projectId}.localhost`);
    // The browser, having read the own host's /.well-known/webauthn, signs at the custom origin for the own host's rpID.
    const answer = usePasskey(user.passkey, options, custom);
    const done = await untilApp(browser, await browser.request(discoverAction(page1), { form: { response: JSON.stringify(answer) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    const tokens = await client.authorizationCodeGrant(moved.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    expect(tokens.claims()).toMatchObject({ iss: custom, sub: user.sub });
    // An origin that is not the project's is refused, whatever the rpID.
    const other = new Browser();
    const again = await open(other, moved);
    const elsewhere = usePasskey(user.passkey, pageOptions<DiscoverOptions>(again.page1.text), 'http://evil.acme.test');
    expect((await other.request(discoverAction(again.page1), { form: { response: JSON.stringify(elsewhere) } })).status).toBe(400);
  });

  it('page 1 no longer tells whether an address has a passkey: a user with one is sent the code like anyone', async () => {
    const app = await newApp();
    const user = await newUserWithPasskey(app);
    const pages: BrowserResponse[] = [];
    for (const email of [user.email, uniqueEmail('nobody')]) {
      const browser = new Browser();
      const { page1 } = await open(browser, app);
      pages.push(await submitEmail(browser, page1, email));
    }
    const [withPasskey, without] = pages as [BrowserResponse, BrowserResponse];
    expect(withPasskey.status).toBe(200);
    expect(withPasskey.url.replace(/interaction\/[^/]+/, '')).toBe(without.url.replace(/interaction\/[^/]+/, ''));
    expect(withPasskey.text).not.toContain('Sign in with a passkey');
    expect(t.mailer.lastCode(user.email)).toMatch(/^\d{6}$/);
  });

  it("a passkey of another project is refused on this project's page 1", async () => {
    const app = await newApp();
    const other = await newApp();
    const stranger = await newUserWithPasskey(other);
    const browser = new Browser();
    const { page1 } = await open(browser, app);
    // The authenticator answers whatever it is asked (a browser would not even offer it: another rpID).
    const answer = usePasskey(stranger.passkey, pageOptions<DiscoverOptions>(page1.text), ownOrigin(app.projectId));
    const refused = await browser.request(discoverAction(page1), { form: { response: JSON.stringify(answer) } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('That passkey is not registered here');
    // Page 1 again, with a new request.
    expect(pageOptions<DiscoverOptions>(refused.text).challenge).not.toBe(pageOptions<DiscoverOptions>(page1.text).challenge);
    expect((await passkeyEvents(app.projectId)).at(-1)).toMatchObject({ event_status: 'failed', details: { reason: 'unknown_credential' } });
    expect(await passkeyEvents(app.projectId)).not.toContainEqual(expect.objectContaining({ event_status: 'success' }));
  });

  it('a passkey presented for another rpID than its own is refused (403) with a refusal event; another user handle too', async () => {
    const app = await newApp();
    const user = await newUserWithPasskey(app);
    const browser = new Browser();
    const { page1 } = await open(browser, app);
    const options = pageOptions<DiscoverOptions>(page1.text);
    // Signed for the shared host's rpID (localhost, a registrable suffix of the own host): not the one it was made under.
    const wrongRp = usePasskey(user.passkey, { ...options, rpId: 'localhost' }, ownOrigin(app.projectId));
    const refused = await browser.request(discoverAction(page1), { form: { response: JSON.stringify(wrongRp) } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This passkey is not for this address');
    expect((await passkeyEvents(app.projectId)).at(-1)).toMatchObject({
      event_status: 'denied',
      details: { reason: 'wrong_rp_id', mpinId: user.passkey.id },
    });

    // The right passkey answered with another user's handle is not taken either.
    const again = await open(browser, app);
    const forged = usePasskey(user.passkey, pageOptions<DiscoverOptions>(again.page1.text), ownOrigin(app.projectId));
    (forged.response as { userHandle: string }).userHandle = Buffer.from('someone-else').toString('base64url');
    const notTaken = await browser.request(discoverAction(again.page1), { form: { response: JSON.stringify(forged) } });
    expect(notTaken.status).toBe(400);
    expect((await passkeyEvents(app.projectId)).at(-1)).toMatchObject({ event_status: 'failed', details: { reason: 'user_handle' } });
  });

  /** The Signal API calls a page passes to its script (data-signal, data-signal-options). */
  const signalsOf = (html: string) =>
    [...html.matchAll(/data-signal="([^"]+)" data-signal-options="([^"]*)"/g)].map((m) => ({
      signalName: m[1],
      ...(JSON.parse((m[2] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as Record<string, unknown>),
    }));

  it('page 1 shown again after a bad address keeps its passkey request (a new one), its phone button and its scripts', async () => {
    const app = await newApp();
    const browser = new Browser();
    const { page1 } = await open(browser, app);
    const bad = await browser.request(emailAction(page1), { form: { email: 'not an address' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('data-webauthn="discover"');
    expect(bad.text).toContain('>Use a phone or another device</button>');
    expect(bad.text).toMatch(/<input id="email"[^>]*autocomplete="username webauthn"/);
    expect(bad.text).toContain('<script defer src="/idp/assets/passkey.js">');
    const options = pageOptions<DiscoverOptions>(bad.text);
    expect(options.challenge).not.toBe(pageOptions<DiscoverOptions>(page1.text).challenge);
    // The new request is the one the server expects: a passkey answered to it signs in.
    const user = await newUserWithPasskey(app);
    const answer = usePasskey(user.passkey, options, ownOrigin(app.projectId));
    const done = await untilApp(browser, await browser.request(discoverAction(bad), { form: { response: JSON.stringify(answer) } }));
    expect(done.location ?? '', done.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
  });

  it('the Signal API: a credential unknown here, and a revoked one, are signalled to the browser as unknown', async () => {
    const app = await newApp();
    const other = await newApp();
    const stranger = await newUserWithPasskey(other);
    const browser = new Browser();
    const { page1 } = await open(browser, app);
    expect(signalsOf(page1.text)).toEqual([]);
    const unknown = usePasskey(stranger.passkey, pageOptions<DiscoverOptions>(page1.text), ownOrigin(app.projectId));
    const refused = await browser.request(discoverAction(page1), { form: { response: JSON.stringify(unknown) } });
    expect(refused.status).toBe(400);
    expect(signalsOf(refused.text)).toEqual([
      { signalName: 'unknownCredential', rpID: `${app.projectId}.localhost`, credentialID: stranger.passkey.id },
    ]);

    const user = await newUserWithPasskey(app);
    const revoked = await admin.api.post(apiPath(api.revokeDevice, { project: app.projectId, mpinId: user.passkey.id }), { reason: 'PORTAL_REVOKE' });
    expect(revoked.status).toBe(200);
    const again = await open(browser, app);
    const answer = usePasskey(user.passkey, pageOptions<DiscoverOptions>(again.page1.text), ownOrigin(app.projectId));
    const refusedPage = await browser.request(discoverAction(again.page1), { form: { response: JSON.stringify(answer) } });
    expect(refusedPage.status).toBe(403);
    expect(refusedPage.text).toContain('This passkey was revoked');
    expect(refusedPage.text).toContain('<script defer src="/idp/assets/passkey.js">');
    expect(signalsOf(refusedPage.text)).toEqual([
      { signalName: 'unknownCredential', rpID: `${app.projectId}.localhost`, credentialID: user.passkey.id },
    ]);
  });

  it("asked for JSON, a passkey sign-in answers its redirect and the Signal API's accepted credentials: revoked and other-rpID passkeys left out", async () => {
    const app = await newApp();
    const user = await newUserWithPasskey(app);
    const rpID = `${app.projectId}.localhost`;
    // Another passkey of this relying party, one revoked, and one made under the shared host before a move (rp_id NULL).
    const createdAt = new Date();
    const second = await storeDevice(d.db, { projectId: app.projectId, userId: user.sub, createdAt });
    const revoked = await storeDevice(d.db, { projectId: app.projectId, userId: user.sub, createdAt });
    const shared = await storeDevice(d.db, { projectId: app.projectId, userId: user.sub, createdAt });
    await d.db.query('UPDATE devices SET rp_id = $2 WHERE project_id = $1 AND id = ANY($3)', [app.projectId, rpID, [second, revoked]]);
    await d.db.query('UPDATE devices SET revoked = true, revoked_at = now() WHERE project_id = $1 AND id = $2', [app.projectId, revoked]);

    const browser = new Browser();
    const { verifier, page1 } = await open(browser, app);
    const answer = usePasskey(user.passkey, pageOptions<DiscoverOptions>(page1.text), ownOrigin(app.projectId));
    const json = await browser.request(discoverAction(page1), {
      form: { response: JSON.stringify(answer) },
      headers: { accept: 'application/json' },
    });
    expect(json.status, json.text).toBe(200);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const body = json.json<{ redirect: string; signals: Array<{ allAcceptedCredentialIDs?: string[] }> }>();
    const userID = Buffer.from(user.sub).toString('base64url');
    expect(body.signals).toEqual([
      { signalName: 'allAcceptedCredentials', rpID, userID, allAcceptedCredentialIDs: expect.any(Array) },
      { signalName: 'currentUserDetails', rpID, userID, userName: user.email, userDisplayName: user.email },
    ]);
    expect(body.signals[0]?.allAcceptedCredentialIDs?.toSorted()).toEqual([user.passkey.id, second].toSorted());
    expect(JSON.stringify(body.signals)).not.toContain(revoked);
    expect(JSON.stringify(body.signals)).not.toContain(shared);
    // The redirect is the 303's: followed, the app gets its code and the same sub.
    const done = await untilApp(browser, await browser.get(new URL(body.redirect, ownOrigin(app.projectId)).href));
    const tokens = await client.authorizationCodeGrant(app.config, new URL(done.location as string), { pkceCodeVerifier: verifier });
    expect(tokens.claims()?.sub).toBe(user.sub);

    // A refused answer asked for JSON is still its page (the script shows it).
    const another = new Browser();
    const again = await open(another, app);
    const refused = await another.request(discoverAction(again.page1), {
      form: {
        response: JSON.stringify(
          usePasskey(user.passkey, { ...pageOptions<DiscoverOptions>(again.page1.text), rpId: 'localhost' }, ownOrigin(app.projectId)),
        ),
      },
      headers: { accept: 'application/json' },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('failed answers to the discoverable request are limited per client address (429 past the limit)', async () => {
    const app = await newApp();
    const other = await newApp();
    const stranger = await newUserWithPasskey(other);
    const browser = new Browser();
    let { page1: current } = await open(browser, app);
    for (let i = 0; i < DISCOVERIES_FAILED_PER_CLIENT; i += 1) {
      const answer = usePasskey(stranger.passkey, pageOptions<DiscoverOptions>(current.text), ownOrigin(app.projectId));
      current = await browser.request(discoverAction(current), { form: { response: JSON.stringify(answer) } });
      expect(current.status).toBe(400);
    }
    const answer = usePasskey(stranger.passkey, pageOptions<DiscoverOptions>(current.text), ownOrigin(app.projectId));
    const limited = await browser.request(discoverAction(current), { form: { response: JSON.stringify(answer) } });
    expect(limited.status).toBe(429);
    expect(limited.text).toContain('Too many tries');
  });
});

export type { BrowserResponse };
