import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, type ApplicationKeys, type ApplicationType, type Issuer } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, changeIssuer, closeProject, createApp, createKeys, createProject, REDIRECT, setEnabled } from './support/fixtures.ts';
import { refusal } from './support/relying-party.ts';
import { declinePasskey, formAction, isPasskeyOffer, linkHref, submitEmail } from './support/sign-in.ts';

type AuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';

describeEachDatabase('every project is an OpenID Connect issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  const issuerUrl = (projectId: string) => `${t.baseUrl}/p/${projectId}`;

  async function projectWithApp(type: ApplicationType = 'web'): Promise<{ projectId: string; appId: string; keys: ApplicationKeys }> {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId, 'Web portal', type);
    const keys = await createKeys(admin, appId);
    return { projectId, appId, keys };
  }

  const setIssuer = (projectId: string, change: Partial<Issuer>) => changeIssuer(admin, projectId, change);

  /** openid-client as the application's relying party, configured by discovery. */
  async function relyingParty(projectId: string, keys: ApplicationKeys, method: AuthMethod = 'client_secret_basic', secret = keys.clientSecret) {
    const auth =
      method === 'client_secret_basic'
        ? client.ClientSecretBasic(secret)
        : method === 'client_secret_post'
          ? client.ClientSecretPost(secret)
          : client.None();
    return client.discovery(new URL(issuerUrl(projectId)), keys.clientId, method === 'none' ? undefined : secret, auth, {
      execute: [client.allowInsecureRequests],
    });
  }

  interface Authorization {
    url: URL;
    verifier: string;
    state: string;
  }

  async function authorization(config: client.Configuration, redirectUri = REDIRECT): Promise<Authorization> {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url, verifier, state };
  }

  /** The browser opens the authorization URL and follows it to the first page it shows. */
  async function open(browser: Browser, url: URL): Promise<BrowserResponse> {
    return (await browser.follow(await browser.get(url.href), (location) => location.startsWith(REDIRECT))).at(-1) as BrowserResponse;
  }

  /** The end user signs in with an emailed code; answers the redirect to the application. */
  async function signIn(browser: Browser, start: Authorization, email: string): Promise<URL> {
    const emailPage = await open(browser, start.url);
    expect(emailPage.status, emailPage.text).toBe(200);
    const codePage = await submitEmail(browser, emailPage, email);
    expect(codePage.text).toContain('We sent a 6-digit code to');
    const posted = await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } });
    const toApp = (location: string) => location.startsWith(REDIRECT);
    let last = (await browser.follow(posted, toApp)).at(-1) as BrowserResponse;
    // A new user is offered a passkey (passkeys.test.ts); these tests decline it.
    if (isPasskeyOffer(last)) last = (await browser.follow(await declinePasskey(browser, last), toApp)).at(-1) as BrowserResponse;
    expect(last.location ?? '', last.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return new URL(last.location as string);
  }

  const exchange = (config: client.Configuration, callback: URL, start: Authorization) =>
    client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: start.verifier, expectedState: start.state });

  it('publishes discovery and JWKS under /p/{project}, and GET issuer answers that address', async () => {
    const { projectId } = await projectWithApp();
    const res = await fetch(`${issuerUrl(projectId)}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const metadata = (await res.json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(issuerUrl(projectId));
    expect(metadata.code_challenge_methods_supported).toEqual(['S256']);
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['client_secret_basic', 'client_secret_post']);
    expect(metadata.id_token_signing_alg_values_supported).toEqual(['RS256']);
    const jwks = (await (await fetch(String(metadata.jwks_uri))).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');

    const issuer = await admin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }));
    expect(issuer.body.address).toBe(issuerUrl(projectId));
    await setIssuer(projectId, { address: 'https://elsewhere.example.com' });
    expect((await admin.api.get<Issuer>(apiPath(api.getIssuer, { project: projectId }))).body.address).toBe(issuerUrl(projectId));
    expect((await fetch(`${t.baseUrl}/p/NOSUCHPROJECT0000/.well-known/openid-configuration`)).status).toBe(404);
  });

  it('signs an end user in with code + PKCE and client_secret_basic: ID token verified against JWKS, userinfo, a stable sub', async () => {
    const { projectId, keys } = await projectWithApp();
    const config = await relyingParty(projectId, keys);
    const email = uniqueEmail('end-user');
    const start = await authorization(config);
    const tokens = await exchange(config, await signIn(new Browser(), start, email), start);
    const claims = tokens.claims();
    expect(claims?.iss).toBe(issuerUrl(projectId));
    expect(claims?.aud).toBe(keys.clientId);
    const info = await client.fetchUserInfo(config, tokens.access_token, claims?.sub as string);
    expect(info).toMatchObject({ email, email_verified: true });

    // The same person, another browser: the same sub.
    const again = await authorization(config);
    const second = await exchange(config, await signIn(new Browser(), again, email), again);
    expect(second.claims()?.sub).toBe(claims?.sub);
  });

  it("works exactly as the README's example: secret without a named method, no state, email from userinfo", async () => {
    const { projectId, keys } = await projectWithApp();
    const config = await client.discovery(new URL(issuerUrl(projectId)), keys.clientId, keys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    const verifier = client.randomPKCECodeVerifier();
    const challenge = await client.calculatePKCECodeChallenge(verifier);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const email = uniqueEmail('readme');
    const callback = await signIn(new Browser(), { url, verifier, state: '' }, email);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
    const { sub } = tokens.claims() as { sub: string };
    expect(await client.fetchUserInfo(config, tokens.access_token, sub)).toMatchObject({ sub, email, email_verified: true });
  });

  it('shows the project display name and an accessible form on its pages', async () => {
    const { projectId, keys } = await projectWithApp();
    const page = await open(new Browser(), (await authorization(await relyingParty(projectId, keys))).url);
    expect(page.text).toContain('<html lang="en">');
    expect(page.text).toMatch(/<h1>Sign in to Team /);
    expect(page.text).toContain('<label for="email">Email</label>');
  });

  it('takes client_secret_post, and refuses it at the next request once the project switches it off', async () => {
    const { projectId, keys } = await projectWithApp();
    const config = await relyingParty(projectId, keys, 'client_secret_post');
    const start = await authorization(config);
    const tokens = await exchange(config, await signIn(new Browser(), start, uniqueEmail()), start);
    expect(tokens.id_token).toBeTruthy();

    await setIssuer(projectId, { token_endpoint_auth_methods: ['client_secret_basic'] });
    const next = await authorization(config);
    const callback = await signIn(new Browser(), next, uniqueEmail());
    await expect(exchange(config, callback, next)).rejects.toMatchObject({ error: 'invalid_client' });
    // Basic still works.
    const basic = await relyingParty(projectId, keys, 'client_secret_basic');
    const third = await authorization(basic);
    expect((await exchange(basic, await signIn(new Browser(), third, uniqueEmail()), third)).id_token).toBeTruthy();
  });

  it('lets a public client (a single-page app) exchange a code with PKCE alone only while the project allows it', async () => {
    const { projectId, keys } = await projectWithApp('spa');
    const publicClient = await relyingParty(projectId, keys, 'none');
    const refused = await authorization(publicClient);
    await expect(exchange(publicClient, await signIn(new Browser(), refused, uniqueEmail()), refused)).rejects.toMatchObject({
      error: 'invalid_client',
    });

    await setIssuer(projectId, { allow_pkce_only_token_exchange: true });
    const allowed = await authorization(publicClient);
    const tokens = await exchange(publicClient, await signIn(new Browser(), allowed, uniqueEmail()), allowed);
    expect(tokens.claims()?.aud).toBe(keys.clientId);
    // Without the verifier the code is refused: PKCE is what authenticates a public client.
    const noVerifier = await authorization(publicClient);
    const callback = await signIn(new Browser(), noVerifier, uniqueEmail());
    await expect(
      client.authorizationCodeGrant(publicClient, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: noVerifier.state }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('a web app never signs in as a public client, even where PKCE-only exchange is allowed', async () => {
    const { projectId, keys } = await projectWithApp('web');
    await setIssuer(projectId, { allow_pkce_only_token_exchange: true });
    const publicClient = await relyingParty(projectId, keys, 'none');
    const start = await authorization(publicClient);
    expect(await refusal(exchange(publicClient, await signIn(new Browser(), start, uniqueEmail()), start))).toBe('invalid_client');
  });

  it('PKCE: optional for a web app by default (verified when sent), required once the project says so; always for a single-page app', async () => {
    const { projectId, keys } = await projectWithApp('web');
    const config = await relyingParty(projectId, keys);
    const state = client.randomState();
    const withoutPkce = () => client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid email', state });
    const noPkce = await signIn(new Browser(), { url: withoutPkce(), verifier: '', state }, uniqueEmail());
    expect((await client.authorizationCodeGrant(config, noPkce, { expectedState: state })).claims()?.aud).toBe(keys.clientId);
    // A challenge sent is verified: the wrong verifier is refused.
    const sent = await authorization(config);
    const callback = await signIn(new Browser(), sent, uniqueEmail());
    expect(
      await refusal(
        client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: client.randomPKCECodeVerifier(), expectedState: sent.state }),
      ),
    ).toBe('invalid_grant');

    await setIssuer(projectId, { require_pkce_for_confidential_clients: true });
    const refused = await new Browser().get(withoutPkce().href);
    expect(refused.status).toBe(303);
    expect(new URL(refused.location as string).searchParams.get('error')).toBe('invalid_request');

    const spa = await projectWithApp('spa');
    const spaConfig = await relyingParty(spa.projectId, spa.keys);
    const spaRefused = await new Browser().get(client.buildAuthorizationUrl(spaConfig, { redirect_uri: REDIRECT, scope: 'openid', state }).href);
    expect(new URL(spaRefused.location as string).searchParams.get('error_description')).toMatch(/requires PKCE/);
  });

  it('signs ID tokens with the algorithm of the issuer settings (ES256), keeping the earlier key published', async () => {
    const { projectId, keys } = await projectWithApp();
    await relyingParty(projectId, keys); // the RS256 key is made on first use
    await setIssuer(projectId, { id_token_signing_alg: 'ES256' });
    const config = await relyingParty(projectId, keys);
    const start = await authorization(config);
    const tokens = await exchange(config, await signIn(new Browser(), start, uniqueEmail()), start);
    const header = JSON.parse(Buffer.from((tokens.id_token as string).split('.')[0] as string, 'base64url').toString()) as { alg: string };
    expect(header.alg).toBe('ES256');
    const jwks = (await (await fetch(`${issuerUrl(projectId)}/jwks`)).json()) as { keys: Array<{ alg: string }> };
    expect(jwks.keys.map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
  });

  it('refuses a wrong secret and a reused code: no token', async () => {
    const { projectId, keys } = await projectWithApp();
    const wrong = await relyingParty(projectId, keys, 'client_secret_basic', 'not-the-secret');
    const start = await authorization(wrong);
    expect(await refusal(exchange(wrong, await signIn(new Browser(), start, uniqueEmail()), start))).toBe('invalid_client');

    const config = await relyingParty(projectId, keys);
    const once = await authorization(config);
    const callback = await signIn(new Browser(), once, uniqueEmail());
    expect((await exchange(config, callback, once)).access_token).toBeTruthy();
    await expect(exchange(config, callback, once)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('answers an unregistered redirect URI with INVALID_REQUEST_PARAMETERS for redirect_uri and never redirects there', async () => {
    const { projectId, keys } = await projectWithApp();
    const config = await relyingParty(projectId, keys);
    const start = await authorization(config, `${REDIRECT}/other`);
    const res = await new Browser().get(start.url.href);
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
    expect(res.text).toContain('INVALID_REQUEST_PARAMETERS: redirect_uri');
  });

  it('refuses end-user sign-in with a page for a disabled application and for a closed project', async () => {
    const { projectId, appId, keys } = await projectWithApp();
    const config = await relyingParty(projectId, keys);
    await setEnabled(admin, appId, false);
    const disabled = await open(new Browser(), (await authorization(config)).url);
    expect(disabled.status).toBe(403);
    expect(disabled.text).toContain('This application is disabled');

    await setEnabled(admin, appId, true);
    // A sign-in under way when the project closes is refused too.
    const browser = new Browser();
    const emailPage = await open(browser, (await authorization(config)).url);
    await closeProject(admin, projectId);
    const refused = await browser.request(formAction(emailPage), { form: { email: uniqueEmail() } });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('This project is closed');
    const closed = await open(new Browser(), (await authorization(config)).url);
    expect(closed.status).toBe(403);
    expect(closed.text).toContain('This project is closed');
  });

  it('returns error=consent_required to the application when the user presses Cancel', async () => {
    const { projectId, keys } = await projectWithApp();
    const browser = new Browser();
    const page = await open(browser, (await authorization(await relyingParty(projectId, keys))).url);
    const cancelled = (await browser.follow(await browser.get(linkHref(page, 'Cancel')), (l) => l.startsWith(REDIRECT))).at(-1) as BrowserResponse;
    const back = new URL(cancelled.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe('consent_required');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it("lets only the project's Allowed CORS Origins call userinfo from a browser", async () => {
    const { projectId, keys } = await projectWithApp();
    const current = await admin.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: projectId }));
    const { id: _id, enabled: _enabled, ...settings } = current.body;
    const saved = await admin.api.put(apiPath(api.updateProject, { project: projectId }), {
      ...settings,
      allowedCORSDomains: ['https://spa.example.com'],
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const config = await relyingParty(projectId, keys);
    const start = await authorization(config);
    const tokens = await exchange(config, await signIn(new Browser(), start, uniqueEmail()), start);
    const userinfo = (origin: string) => fetch(`${issuerUrl(projectId)}/me`, { headers: { authorization: `Bearer ${tokens.access_token}`, origin } });
    const allowed = await userinfo('https://spa.example.com');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://spa.example.com');
    const other = await userinfo('https://evil.example.com');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a CORS preflight of a client endpoint only for an Allowed CORS Origin; discovery and keys for any', async () => {
    const { projectId } = await projectWithApp();
    const current = await admin.api.get<Record<string, unknown>>(apiPath(api.getProject, { project: projectId }));
    const { id: _id, enabled: _enabled, ...settings } = current.body;
    expect(
      (await admin.api.put(apiPath(api.updateProject, { project: projectId }), { ...settings, allowedCORSDomains: ['https://spa.example.com'] }))
        .status,
    ).toBe(200);
    const preflight = (path: string, origin: string, method = 'POST') =>
      fetch(`${issuerUrl(projectId)}${path}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method } });
    for (const path of ['/token', '/me']) {
      const allowed = await preflight(path, 'https://spa.example.com');
      expect(allowed.headers.get('access-control-allow-origin'), path).toBe('https://spa.example.com');
      const foreign = await preflight(path, 'https://evil.example.com');
      expect(foreign.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(foreign.headers.get('access-control-allow-methods'), path).toBeNull();
    }
    for (const path of ['/.well-known/openid-configuration', '/jwks']) {
      expect((await preflight(path, 'https://evil.example.com', 'GET')).headers.get('access-control-allow-origin'), path).toBe(
        'https://evil.example.com',
      );
    }
  });

  it('answers response_mode=form_post with a page whose form the CSP lets post to the redirect URI, and whose script it allows by hash', async () => {
    const { projectId, keys } = await projectWithApp();
    const config = await relyingParty(projectId, keys);
    const start = await authorization(config);
    start.url.searchParams.set('response_mode', 'form_post');
    const browser = new Browser();
    const emailPage = await open(browser, start.url);
    const email = uniqueEmail('form-post');
    const codePage = await submitEmail(browser, emailPage, email);
    let last = (await browser.follow(await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }))).at(
      -1,
    ) as BrowserResponse;
    if (isPasskeyOffer(last)) last = (await browser.follow(await declinePasskey(browser, last))).at(-1) as BrowserResponse;
    expect(last.status, last.text).toBe(200);
    expect(last.text).toContain(`<form method="post" action="${REDIRECT}">`);
    expect(last.text).toMatch(/name="code" value="[^"]+"/);
    expect(last.text).toContain(`name="state" value="${start.state}"`);
    const csp = last.headers.get('content-security-policy') ?? '';
    const directive = (name: string) =>
      csp
        .split(';')
        .map((d) => d.trim())
        .find((d) => d.startsWith(`${name} `)) ?? '';
    expect(directive('form-action').split(' ')).toEqual(['form-action', "'self'", new URL(REDIRECT).origin]);
    expect(directive('script-src')).toMatch(/^script-src 'self' 'sha256-[A-Za-z0-9+/=]+'$/);
    expect(directive('default-src')).toBe("default-src 'self'");
  });
});

describe('project issuer pieces', () => {
  it.each([
    [['https://spa.example.com'], 'https://spa.example.com', true],
    [['HTTPS://SPA.Example.COM:443/'], 'https://spa.example.com', true],
    [['https://spa.example.com/app/callback'], 'https://spa.example.com', true],
    [['http://localhost:3000'], 'http://localhost:3000', true],
    [['https://spa.example.com'], 'https://spa.example.com:8443', false],
    [['https://spa.example.com'], 'http://spa.example.com', false],
    [['https://spa.example.com'], 'https://spa.example.com.evil.example', false],
    [['com.example.app:/cb'], 'null', false],
    [['not a url'], 'https://spa.example.com', false],
    [[], 'https://spa.example.com', false],
  ])('allows CORS for %j from %s: %s (entries compared as origins)', async (allowed, origin, expected) => {
    const { corsOriginAllowed } = await import('../src/issuer/project-provider.ts');
    expect(corsOriginAllowed(allowed, origin)).toBe(expected);
  });

  it('keeps at most the configured number of providers, rebuilding one whose version changed', async () => {
    const { createProviderCache } = await import('../src/issuer/provider-cache.ts');
    let builds = 0;
    let evicted = 0;
    const cache = createProviderCache(
      async () => {
        builds += 1;
        return {} as never;
      },
      { max: 2, observe: { evicted: () => (evicted += 1), size: () => undefined } },
    );
    const state = (projectId: string, version = 1) => ({ projectId, version }) as never;
    await cache.providerFor(state('a'));
    await cache.providerFor(state('a'));
    expect(builds).toBe(1);
    await cache.providerFor(state('a', 2));
    expect(builds).toBe(2);
    await cache.providerFor(state('b'));
    await cache.providerFor(state('c'));
    expect(cache.size).toBe(2);
    // 'a' went for room when 'c' came: an eviction (a version change is a rebuild, not one).
    expect(evicted).toBe(1);
    await cache.providerFor(state('a', 2));
    expect(builds).toBe(5);
  });
});
