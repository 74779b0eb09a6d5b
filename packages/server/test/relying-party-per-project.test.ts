import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type Issuer, type SettingsHistory } from '@latchkey/domain';
import { ApiClient, signedInAccount, uniqueEmail, useTestApp, type SignedIn, type TestApp } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, databaseFingerprint, REDIRECT } from './support/fixtures.ts';
import { resolveLocalNames } from './support/localhost-names.ts';
import { untilApp } from './support/relying-party.ts';
import { declinePasskey, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

resolveLocalNames();

/** A project's application, and openid-client configured for it by discovery at `issuer`. */
interface App {
  projectId: string;
  keys: ApplicationKeys;
  config: client.Configuration;
}

async function discover(issuer: string, keys: ApplicationKeys): Promise<client.Configuration> {
  return client.discovery(new URL(issuer), keys.clientId, keys.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
}

/** An emailed-code sign-in of `email` at the app (the passkey offer declined); answers the ID token's claims. */
async function signInByCode(t: TestApp, browser: Browser, app: App, email: string) {
  const verifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(app.config, {
    redirect_uri: REDIRECT,
    scope: 'openid email',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
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
    expect((await issuerOf(projectId)).address).toBe(ownOrigin(projectId));
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
    expect((await beforeAdmin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body.address).toBe(shared);
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
    expect(await databaseFingerprint(d.db)).toEqual(unchanged);

    const moved = await move(beforeAdmin, projectId);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.address).toBe(ownOrigin(projectId));
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
    expect((await issuerOf(projectId)).address).toBe(custom);
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

export type { BrowserResponse };
