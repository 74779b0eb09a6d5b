import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type Issuer, type Project } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, databaseFingerprint, getProject, REDIRECT, setEnabled } from './support/fixtures.ts';
import { untilApp } from './support/relying-party.ts';
import { formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

const AASA =
  '{"applinks":{"details":[{"appIDs":["ABCDE12345.com.acme.app"],"components":[{"/":"/*"}]}]},"webcredentials":{"apps":["ABCDE12345.com.acme.app"]}}';
const ASSET_LINKS =
  '[{"relation":["delegate_permission/common.handle_all_urls","delegate_permission/common.get_login_creds"],' +
  '"target":{"namespace":"android_app","package_name":"com.acme.app","sha256_cert_fingerprints":["AB:CD"]}}]';

let hostCounter = 0;
/** A fresh domain name per call (tests share one database per run). */
const uniqueHost = (label: string) => `${label}-${Date.now().toString(36)}-${(hostCounter += 1)}.acme.test`;

// docs/decisions/0016: a project's custom domain is its issuer, routed by Host; its mobile domain
// serves the association files; hosts are claimed by one project at most.
describeWithDatabase('custom domains of project issuers', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let global: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    global = await signedInAccount(t, d.db, ['glb::projects']);
  });
  const port = () => new URL(t.baseUrl).port;

  /** PUT projects/{id} with the project as it is but for `patch`, by `who`. */
  async function putProject(who: SignedIn, projectId: string, patch: Partial<Project>) {
    const current = await getProject(global, projectId);
    return who.api.put<Project & { error?: string; issues?: Array<{ field: string; code: string; message: string }> }>(
      apiPath(api.updateProject, { project: projectId }),
      { ...current, ...patch },
    );
  }
  async function setDomains(projectId: string, patch: Partial<Project>) {
    const res = await putProject(global, projectId, patch);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const issuerAddress = async (projectId: string) => (await global.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body.address;
  /** A request to this app as if it came for `host` (inject: no DNS needed). */
  const onHost = (host: string, url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' | 'POST' = 'GET') =>
    t.app.inject({ method, url, headers: { host, ...headers } });

  it('only an account with a global permission sets a custom domain; the issuer address is then that origin', async () => {
    const projectId = await createProject(admin);
    expect(await issuerAddress(projectId)).toBe(`${t.baseUrl}${projectIssuerPath(projectId)}`);
    const before = await databaseFingerprint(d.db);
    const refused = await putProject(admin, projectId, { customDomain: `https://${uniqueHost('id')}` });
    expect(refused.status).toBe(403);
    expect(refused.body.issues?.map((i) => i.field)).toEqual(['customDomain']);
    expect(await databaseFingerprint(d.db)).toEqual(before);

    const host = uniqueHost('Login');
    await setDomains(projectId, { customDomain: `HTTPS://${host}/` });
    expect(await issuerAddress(projectId)).toBe(`https://${host.toLowerCase()}`);
    // The project's own admin may still edit everything else.
    const fresh = await putProject(admin, projectId, { displayName: 'Acme' });
    expect(fresh.status).toBe(200);
  });

  it('a relying party discovers the issuer at the custom origin, signs a user in by code and passkey there, and exchanges the code', async () => {
    const projectId = await createProject(admin);
    const keys = await createKeys(admin, await createApp(admin, projectId));
    // localhost resolves to the loopback address the app listens on; PUBLIC_URL's host is 127.0.0.1.
    const origin = `http://localhost:${port()}`;
    await setDomains(projectId, { customDomain: origin });
    expect(await issuerAddress(projectId)).toBe(origin);

    const config = await client.discovery(new URL(origin), keys.clientId, keys.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(origin);
    for (const endpoint of [metadata.authorization_endpoint, metadata.token_endpoint, metadata.jwks_uri, metadata.userinfo_endpoint]) {
      expect(endpoint).toMatch(new RegExp(`^${origin}/[a-z]`));
    }

    const signIn = async (browser: Browser) => {
      const verifier = client.randomPKCECodeVerifier();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid email',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const hops = await browser.follow(await browser.get(url.href));
      const page1 = hops.at(-1) as BrowserResponse;
      expect(page1.status, page1.text).toBe(200);
      expect(page1.url).toMatch(new RegExp(`^${origin}/interaction/`));
      // The provider's cookies belong to the custom origin, with paths at its root.
      for (const hop of hops) {
        for (const cookie of hop.headers.getSetCookie()) expect(cookie).toMatch(/; path=\/(interaction|auth|;|$)/i);
      }
      return { verifier, page1 };
    };
    const tokensOf = async (callback: BrowserResponse, verifier: string) => {
      expect(callback.location ?? '', callback.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
      const tokens = await client.authorizationCodeGrant(config, new URL(callback.location as string), { pkceCodeVerifier: verifier });
      const claims = tokens.claims();
      expect(claims?.iss).toBe(origin);
      return { tokens, sub: claims?.sub as string };
    };

    // A new user: address, emailed code, then "Create a passkey" with rpID = the custom host.
    const email = uniqueEmail('custom');
    const browser = new Browser();
    const first = await signIn(browser);
    const codePage = await submitEmail(browser, first.page1, email);
    expect(codePage.url.startsWith(`${origin}/interaction/`)).toBe(true);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const creation = pageOptions<CreationOptions & { rp: { id: string } }>(offer.text);
    expect(creation.rp.id).toBe('localhost');
    const { passkey, response } = createPasskey(creation, origin);
    const registered = await untilApp(browser, await browser.request(formAction(offer), { form: { response: JSON.stringify(response) } }));
    const { tokens, sub } = await tokensOf(registered, first.verifier);
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, sub);
    expect(userinfo.email).toBe(email);

    // The same user comes back and signs in with the passkey alone.
    const again = new Browser();
    const second = await signIn(again);
    const passkeyPage = await submitEmail(again, second.page1, email);
    const request = pageOptions<RequestOptions & { rpId: string }>(passkeyPage.text);
    expect(request.rpId).toBe('localhost');
    // An answer made for PUBLIC_URL's origin is not one for this site.
    const elsewhere = await again.request(formAction(passkeyPage), { form: { response: JSON.stringify(usePasskey(passkey, request, t.baseUrl)) } });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.location).toBeNull();
    const signedIn = await untilApp(
      again,
      await again.request(formAction(elsewhere), {
        form: { response: JSON.stringify(usePasskey(passkey, pageOptions<RequestOptions>(elsewhere.text), origin)) },
      }),
    );
    expect((await tokensOf(signedIn, second.verifier)).sub).toBe(sub);

    // On PUBLIC_URL, /p/{project} now sends browsers and clients to the one issuer, at its domain.
    const main = `${t.baseUrl}${projectIssuerPath(projectId)}`;
    const moved = await new Browser().get(`${main}/auth?client_id=${keys.clientId}&scope=openid`);
    expect(moved.status).toBe(307);
    expect(moved.location).toBe(`${origin}/auth?client_id=${keys.clientId}&scope=openid`);
    const discovery = await new Browser().get(`${main}/.well-known/openid-configuration`);
    expect(discovery.status).toBe(307);
    expect(discovery.location).toBe(`${origin}/.well-known/openid-configuration`);
    expect(discovery.headers.get('cache-control')).toBe('no-store');
    // Its sign-in pages are not served on PUBLIC_URL either.
    const pageOnMain = await new Browser().get(`${main}/interaction/some-uid`);
    expect(pageOnMain.status).toBe(400);

    // Issue 24: the user's account page is at the custom origin's root, signed in there already;
    // on PUBLIC_URL it sends the browser there.
    const account = (await again.follow(await again.get(`${origin}/account`))).at(-1) as BrowserResponse;
    expect(account.url).toBe(`${origin}/account`);
    expect(account.text).toContain(`Signed in as ${email}`);
    expect(account.text).toContain('action="/account/passkeys/');
    const accountOnMain = await new Browser().get(`${main}/account`);
    expect(accountOnMain.status).toBe(307);
    expect(accountOnMain.location).toBe(`${origin}/account`);
  });

  it('takes a change of custom domain at once: the new host is the issuer, the old one is no project, and without a domain /p/{project} is back', async () => {
    const projectId = await createProject(admin);
    const main = `${projectIssuerPath(projectId)}/.well-known/openid-configuration`;
    const hostA = uniqueHost('a');
    const hostB = uniqueHost('b');
    /** The issuer answering discovery there, or null (a host that is no project's is served as PUBLIC_URL's: no issuer at its root). */
    const issuerOn = async (host: string, url = '/.well-known/openid-configuration') => {
      const res = await onHost(host, url);
      const json = String(res.headers['content-type']).startsWith('application/json') && res.statusCode === 200;
      return { status: res.statusCode, issuer: json ? (res.json() as { issuer: string }).issuer : null };
    };
    expect(await issuerOn(new URL(t.baseUrl).host, main)).toEqual({ status: 200, issuer: `${t.baseUrl}${projectIssuerPath(projectId)}` });

    await setDomains(projectId, { customDomain: `https://${hostA}` });
    const onA = await onHost(hostA, '/.well-known/openid-configuration');
    expect(onA.json()).toMatchObject({ issuer: `https://${hostA}`, token_endpoint: `https://${hostA}/token`, jwks_uri: `https://${hostA}/jwks` });
    expect((await onHost(hostA, '/jwks')).json()).toMatchObject({ keys: [expect.objectContaining({ kty: 'RSA' })] });
    // The Host is compared without regard to case.
    expect(await issuerOn(hostA.toUpperCase())).toEqual({ status: 200, issuer: `https://${hostA}` });

    await setDomains(projectId, { customDomain: `https://${hostB}` });
    expect(await issuerOn(hostB)).toEqual({ status: 200, issuer: `https://${hostB}` });
    expect((await issuerOn(hostA)).issuer).toBeNull();

    await setDomains(projectId, { customDomain: '' });
    expect((await issuerOn(hostB)).issuer).toBeNull();
    expect(await issuerOn(new URL(t.baseUrl).host, main)).toEqual({ status: 200, issuer: `${t.baseUrl}${projectIssuerPath(projectId)}` });
    expect(await issuerAddress(projectId)).toBe(`${t.baseUrl}${projectIssuerPath(projectId)}`);
  });

  it("an application's keys answer the issuer GET issuer answers: the custom origin while it is set, /p/{project} once removed", async () => {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId);
    const main = `${t.baseUrl}${projectIssuerPath(projectId)}`;
    expect((await createKeys(admin, appId)).issuer).toBe(main);
    const host = uniqueHost('keys');
    await setDomains(projectId, { customDomain: `https://${host}` });
    const keysPath = apiPath(api.getAppKeys, { application: appId });
    const keys = await admin.api.get<ApplicationKeys>(keysPath);
    expect(keys.body.issuer).toBe(`https://${host}`);
    expect(keys.body.issuer).toBe(await issuerAddress(projectId));
    // The discovery URL the console shows beside it names that issuer.
    expect((await onHost(host, '/.well-known/openid-configuration')).json()).toMatchObject({ issuer: keys.body.issuer });
    const saved = await admin.api.put<ApplicationKeys>(keysPath, { redirectURI: [REDIRECT, 'https://app.example.com/other'] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.issuer).toBe(`https://${host}`);

    await setDomains(projectId, { customDomain: '' });
    expect((await admin.api.get<ApplicationKeys>(keysPath)).body.issuer).toBe(main);
  });

  it('pages on an https custom domain follow its scheme, not PUBLIC_URL’s (http): HSTS, and no http logo', async () => {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId);
    const keys = await createKeys(admin, appId);
    const logo = 'http://cdn.acme.test/logo.png';
    const query = new URLSearchParams({
      client_id: keys.clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    /** The sign-in page at `host`, and the refusal of an unregistered redirect URI there. */
    async function pagesOn(host: string) {
      const auth = await onHost(host, `/auth?${query}`);
      expect(auth.statusCode, auth.body).toBe(303);
      const cookies = ([] as string[]).concat(auth.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]);
      const page = await onHost(host, new URL(String(auth.headers.location), `https://${host}`).pathname, { cookie: cookies.join('; ') });
      expect(page.statusCode, page.body).toBe(200);
      const wrong = new URLSearchParams(query);
      wrong.set('redirect_uri', 'https://elsewhere.example.com/cb');
      const refused = await onHost(host, `/auth?${wrong}`);
      expect(refused.body).toContain('INVALID_REQUEST_PARAMETERS: redirect_uri');
      return [page, refused];
    }

    // On an http domain the http logo is shown (it is an acceptable logo there) and HSTS is not sent.
    const plain = uniqueHost('plain');
    await setDomains(projectId, { customDomain: `http://${plain}`, logoUrl: logo });
    for (const page of await pagesOn(plain)) {
      expect(page.body).toContain(`src="${logo}"`);
      expect(page.headers['strict-transport-security']).toBeUndefined();
    }

    const secure = uniqueHost('secure');
    await setDomains(projectId, { customDomain: `https://${secure}` });
    for (const page of await pagesOn(secure)) {
      expect(page.body).not.toContain(logo);
      expect(String(page.headers['content-security-policy'])).not.toContain('cdn.acme.test');
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    }
    // A page answered before the provider (a disabled application's refusal) too.
    await setEnabled(admin, appId, false);
    const disabled = await onHost(secure, `/auth?${query}`);
    expect(disabled.statusCode).toBe(403);
    expect(disabled.body).not.toContain(logo);
    expect(disabled.headers['strict-transport-security']).toBe('max-age=31536000');
    // PUBLIC_URL (http) itself still sends none.
    expect((await onHost(new URL(t.baseUrl).host, '/api/config')).headers['strict-transport-security']).toBeUndefined();
  });

  it('serves only the issuer on a custom domain: not the console, its API, or the console sign-in', async () => {
    const projectId = await createProject(admin);
    const host = uniqueHost('only');
    await setDomains(projectId, { customDomain: `https://${host}` });
    for (const url of ['/api/config', '/idp/.well-known/openid-configuration', '/', `${projectIssuerPath(projectId)}/jwks`]) {
      const res = await onHost(host, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('Latchkey console');
    }
    // The pages' own files are there, as the pages on this origin ask for them.
    for (const url of ['/idp/assets/sign-in.css', '/idp/assets/passkey.js']) expect((await onHost(host, url)).statusCode, url).toBe(200);
  });

  it('serves the association files on the custom domain and the mobile domain: JSON as pasted, 404 when empty', async () => {
    const projectId = await createProject(admin);
    const custom = uniqueHost('id');
    const mobile = uniqueHost('links');
    await setDomains(projectId, { customDomain: `https://${custom}`, customMobileDomain: `https://${mobile}` });
    for (const host of [custom, mobile]) {
      for (const path of ['/.well-known/apple-app-site-association', '/.well-known/assetlinks.json']) {
        expect((await onHost(host, path)).statusCode, `${host}${path}`).toBe(404);
      }
    }

    await setDomains(projectId, { associationIOS: AASA, associationAndroid: ASSET_LINKS });
    for (const host of [custom, mobile, mobile.toUpperCase()]) {
      const ios = await onHost(host, '/.well-known/apple-app-site-association');
      expect(ios.statusCode).toBe(200);
      expect(ios.headers['content-type']).toMatch(/^application\/json\b/);
      expect(ios.headers['cache-control']).toBe('public, max-age=300');
      expect(ios.body).toBe(AASA);
      const android = await onHost(host, '/.well-known/assetlinks.json');
      expect(android.statusCode).toBe(200);
      expect(android.headers['content-type']).toMatch(/^application\/json\b/);
      expect(android.json()).toEqual(JSON.parse(ASSET_LINKS));
      expect((await onHost(host, '/.well-known/assetlinks.json', {}, 'HEAD')).statusCode).toBe(200);
    }
    // The mobile domain serves nothing else; PUBLIC_URL's host serves no project's files.
    expect((await onHost(mobile, '/.well-known/openid-configuration')).statusCode).toBe(404);
    expect((await onHost(mobile, '/')).statusCode).toBe(404);
    expect((await onHost(new URL(t.baseUrl).host, '/.well-known/assetlinks.json')).statusCode).toBe(404);

    // What the platforms could not read is refused when saved, and nothing changes.
    const before = await databaseFingerprint(d.db);
    for (const [field, text] of [
      ['associationIOS', '{"applinks":'],
      ['associationIOS', '["not an object"]'],
      ['associationAndroid', '{"relation":[]}'],
    ] as const) {
      const res = await putProject(global, projectId, { [field]: text });
      expect(res.status, `${field} ${text}`).toBe(400);
      expect(res.body.issues?.map((i) => i.field)).toEqual([field]);
    }
    expect(await databaseFingerprint(d.db)).toEqual(before);

    await setDomains(projectId, { associationIOS: '' });
    expect((await onHost(custom, '/.well-known/apple-app-site-association')).statusCode).toBe(404);
  });

  it('lets no two projects claim one host, nor PUBLIC_URL’s own: 409 or 400 naming the field, nothing changed', async () => {
    const a = await createProject(admin);
    const b = await createProject(admin);
    const custom = uniqueHost('taken');
    const mobile = uniqueHost('taken-links');
    await setDomains(a, { customDomain: `https://${custom}`, customMobileDomain: `https://${mobile}` });

    const before = await databaseFingerprint(d.db);
    const refusals: Array<[Partial<Project>, number, string]> = [
      [{ customDomain: `https://${custom.toUpperCase()}/` }, 409, 'customDomain'],
      [{ customDomain: `http://${custom}` }, 409, 'customDomain'],
      [{ customDomain: `https://${mobile}` }, 409, 'customDomain'],
      [{ customMobileDomain: `https://${custom}` }, 409, 'customMobileDomain'],
      [{ customDomain: t.baseUrl }, 400, 'customDomain'],
      [{ customMobileDomain: `${t.baseUrl}/` }, 400, 'customMobileDomain'],
      [{ customDomain: `https://${uniqueHost('path')}/login` }, 400, 'customDomain'],
      [{ customDomain: 'urn:acme:login' }, 400, 'customDomain'],
    ];
    for (const [patch, status, field] of refusals) {
      const res = await putProject(global, b, patch);
      expect(res.status, JSON.stringify(patch)).toBe(status);
      expect(res.body.error).toBe(status === 409 ? 'conflict' : 'validation_failed');
      expect(res.body.issues?.map((i) => i.field)).toEqual([field]);
    }
    expect(await databaseFingerprint(d.db)).toEqual(before);

    // One project may use one host for both; a host let go may be taken by another.
    const both = uniqueHost('both');
    await setDomains(b, { customDomain: `https://${both}`, customMobileDomain: `https://${both}` });
    await setDomains(a, { customMobileDomain: '' });
    await setDomains(b, { customMobileDomain: `https://${mobile}` });
    expect((await onHost(mobile, '/.well-known/openid-configuration')).statusCode).toBe(404);
  });

  it('lets one of two projects claiming one host at once have it', async () => {
    const a = await createProject(admin);
    const b = await createProject(admin);
    const host = uniqueHost('race');
    const [ra, rb] = await Promise.all([a, b].map((id) => putProject(global, id, { customDomain: `https://${host}` })));
    expect([ra?.status, rb?.status].sort()).toEqual([200, 409]);
    const winner = ra?.status === 200 ? a : b;
    expect((await onHost(host, '/.well-known/openid-configuration')).json()).toMatchObject({ issuer: `https://${host}` });
    expect(await issuerAddress(winner === a ? b : a)).toContain(t.baseUrl);
  });

  it('cannot be made to answer for another origin by a forged Host or X-Forwarded-*', async () => {
    const projectId = await createProject(admin);
    const other = await createProject(admin);
    const otherHost = uniqueHost('other');
    await setDomains(other, { customDomain: `https://${otherHost}` });
    const discovery = `${projectIssuerPath(projectId)}/.well-known/openid-configuration`;
    const expected = `${t.baseUrl}${projectIssuerPath(projectId)}`;
    for (const headers of [
      { host: 'evil.example' },
      { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
      { forwarded: 'host=evil.example;proto=https' },
      { host: new URL(t.baseUrl).host, 'x-forwarded-host': 'evil.example' },
    ]) {
      const res = await t.app.inject({ url: discovery, headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.json(), JSON.stringify(headers)).toMatchObject({ issuer: expected, token_endpoint: `${expected}/token` });
    }
    // Another project's domain reaches that project only: its issuer does not serve this project's paths.
    const crossed = await onHost(otherHost, discovery);
    expect(crossed.statusCode).toBe(404);
  });

  it('answers a Host that names no host as PUBLIC_URL’s own requests, never with a 500', async () => {
    const projectId = await createProject(admin);
    const discovery = `${projectIssuerPath(projectId)}/.well-known/openid-configuration`;
    for (const host of [
      'a b',
      '[::1',
      'x'.repeat(5000),
      'evil.test/../p',
      'user@evil.test',
      'ünïcode.test',
      'localhost:99999',
      '%00.test',
      '.',
      ':',
    ]) {
      // Such a Host is no project's: the request is served as PUBLIC_URL's, which has no issuer at its root.
      for (const path of ['/.well-known/openid-configuration', '/.well-known/assetlinks.json', '/token']) {
        const root = await onHost(host, path, {}, path === '/token' ? 'POST' : 'GET');
        expect(root.statusCode, `${host} ${path}`).toBeLessThan(500);
        expect(root.body, `${host} ${path}`).not.toContain('"issuer"');
      }
      const issuer = await onHost(host, discovery);
      expect(issuer.statusCode, host).toBe(200);
      expect(issuer.json(), host).toMatchObject({ issuer: `${t.baseUrl}${projectIssuerPath(projectId)}` });
    }
  });

  describe('the lookup by host', () => {
    it('is a primary-key seek among many domains', async () => {
      await d.db.query(
        `INSERT INTO projects (id, name, email, settings) SELECT 'bulk' || n, 'Bulk ' || n, 'bulk@example.test', '{}'::jsonb FROM generate_series(1, 20000) AS n`,
      );
      await d.db.query(
        `INSERT INTO project_hosts (host, project_id, origin) SELECT 'h' || n || '.bulk.test', 'bulk' || n, NULL FROM generate_series(1, 20000) AS n`,
      );
      await d.db.query('ANALYZE project_hosts');
      const { rows } = await d.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT project_id, origin FROM project_hosts WHERE host = 'h777.bulk.test'`,
      );
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Index Scan using project_hosts_pkey/);
      expect((await onHost('h777.bulk.test', '/.well-known/assetlinks.json')).statusCode).toBe(404);
    });
  });
});
