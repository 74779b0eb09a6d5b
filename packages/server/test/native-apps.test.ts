import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type ApplicationType, type Issuer } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, databaseFingerprint } from './support/fixtures.ts';
import { declinePasskey, formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

const APP_SCHEME_REDIRECT = 'com.example.app:/oauth2redirect';

// RFC 8252 (OAuth 2.0 for Native Apps) at a project's issuer: private-use schemes, claimed https
// URLs and loopback addresses with any port (docs/decisions/0012 "Native apps").
describeWithDatabase('native apps at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  /** A project with a native app (or of `type`) returning to `redirectUris`, and the issuer settings changed by `issuer`. */
  async function appWith(
    redirectUris: string[],
    issuer: Partial<Issuer> = {},
    type: ApplicationType = 'native',
  ): Promise<{ projectId: string; keys: ApplicationKeys }> {
    const projectId = await createProject(admin);
    if (Object.keys(issuer).length > 0) {
      const path = apiPath(api.getIssuer, { project: projectId });
      const current = await admin.api.get<Issuer>(path);
      expect((await admin.api.put(path, { ...current.body, ...issuer })).status).toBe(200);
    }
    const keys = await createKeys(admin, await createApp(admin, projectId, 'Mobile app', type), redirectUris);
    return { projectId, keys };
  }

  /** openid-client as the app: with its secret (client_secret_basic), or as a public client (PKCE alone). */
  const relyingParty = (projectId: string, keys: ApplicationKeys, secret: boolean) =>
    client.discovery(
      new URL(`${t.baseUrl}${projectIssuerPath(projectId)}`),
      keys.clientId,
      secret ? keys.clientSecret : undefined,
      secret ? client.ClientSecretBasic(keys.clientSecret) : client.None(),
      { execute: [client.allowInsecureRequests] },
    );

  async function authorization(config: client.Configuration, redirectUri: string) {
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

  /**
   * The end user signs in with an emailed code (declining the passkey offer); answers the app's
   * redirect and the page whose form led there (its CSP governs that redirect in Chromium).
   */
  async function signIn(browser: Browser, url: URL, redirectUri: string): Promise<{ callback: string; lastForm: BrowserResponse }> {
    const toApp = (location: string) => location.startsWith(redirectUri);
    const emailPage = (await browser.follow(await browser.get(url.href), toApp)).at(-1) as BrowserResponse;
    expect(emailPage.status, emailPage.text).toBe(200);
    const email = uniqueEmail('native');
    let lastForm = await submitEmail(browser, emailPage, email);
    let last = (await browser.follow(await browser.request(formAction(lastForm), { form: { code: t.mailer.lastCode(email) } }), toApp)).at(
      -1,
    ) as BrowserResponse;
    if (isPasskeyOffer(last)) {
      lastForm = last;
      last = (await browser.follow(await declinePasskey(browser, last), toApp)).at(-1) as BrowserResponse;
    }
    expect(last.location ?? '', last.text).toMatch(new RegExp(`^${redirectUri.replaceAll('.', '\\.').replaceAll('[', '\\[')}\\?`));
    return { callback: last.location as string, lastForm };
  }

  const formActionOf = (page: BrowserResponse) =>
    (page.headers.get('content-security-policy') ?? '')
      .split(';')
      .map((d) => d.trim())
      .find((d) => d.startsWith('form-action'));

  it('a native app returning to a private-use scheme signs in as a public client (PKCE alone): the page lets the browser leave for that scheme only', async () => {
    const { projectId, keys } = await appWith([APP_SCHEME_REDIRECT], { allow_pkce_only_token_exchange: true });
    const config = await relyingParty(projectId, keys, false);
    const start = await authorization(config, APP_SCHEME_REDIRECT);
    const { callback, lastForm } = await signIn(new Browser(), start.url, APP_SCHEME_REDIRECT);
    // Chromium applies form-action to the redirects after a form: the scheme is named, nothing wider.
    expect(formActionOf(lastForm)).toBe("form-action 'self' com.example.app:");

    const tokens = await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: start.verifier, expectedState: start.state });
    expect(tokens.claims()?.aud).toBe(keys.clientId);
    expect(tokens.claims()?.iss).toBe(`${t.baseUrl}${projectIssuerPath(projectId)}`);
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()?.sub as string);
    expect(info.email).toMatch(/^native-/);

    // The issuer returns to exactly the registered URI: another path of the scheme is refused with a page.
    const other = await authorization(config, 'com.example.app:/elsewhere');
    const refused = await new Browser().get(other.url.href);
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(refused.text).toContain('INVALID_REQUEST_PARAMETERS: redirect_uri');
  });

  it('a signed-in browser is asked before returning to an app it cannot verify (RFC 8252 §8.6); a web app signs in silently', async () => {
    const { projectId, keys } = await appWith([APP_SCHEME_REDIRECT, 'https://app.example.com/callback'], { allow_pkce_only_token_exchange: true });
    const config = await relyingParty(projectId, keys, false);
    const browser = new Browser();
    await signIn(browser, (await authorization(config, APP_SCHEME_REDIRECT)).url, APP_SCHEME_REDIRECT);

    // Signed in already: a second request for the scheme stops at a page that asks.
    const again = await authorization(config, APP_SCHEME_REDIRECT);
    const toApp = (location: string) => location.startsWith(APP_SCHEME_REDIRECT);
    const asked = (await browser.follow(await browser.get(again.url.href), toApp)).at(-1) as BrowserResponse;
    expect(asked.status, asked.text).toBe(200);
    expect(asked.text).toContain('<h1>Continue to the app?</h1>');
    expect(asked.location).toBeNull();
    const confirmed = (await browser.follow(await browser.request(formAction(asked), { form: {}, method: 'POST' }), toApp)).at(-1) as BrowserResponse;
    expect(confirmed.location ?? '').toMatch(/^com\.example\.app:\/oauth2redirect\?code=/);
    const tokens = await client.authorizationCodeGrant(config, new URL(confirmed.location as string), {
      pkceCodeVerifier: again.verifier,
      expectedState: again.state,
    });
    expect(tokens.claims()?.sub).toBeTruthy();

    // A POST to the confirmation from a browser with no session is refused, with no code.
    const stranger = new Browser();
    const strangerStart = (await stranger.follow(await stranger.get((await authorization(config, APP_SCHEME_REDIRECT)).url.href), toApp)).at(
      -1,
    ) as BrowserResponse;
    const forged = await stranger.request(`${strangerStart.url}/continue`, { method: 'POST', form: {} });
    expect(forged.status).toBeGreaterThanOrEqual(400);
    expect(forged.location ?? '').not.toMatch(/^com\.example\.app:/);

    // The same browser going to the web app's https callback is signed in without a page.
    const web = await authorization(config, 'https://app.example.com/callback');
    const silent = (await browser.follow(await browser.get(web.url.href), (location) => location.startsWith('https://app.example.com/'))).at(
      -1,
    ) as BrowserResponse;
    expect(silent.location ?? '').toMatch(/^https:\/\/app\.example\.com\/callback\?code=/);
  });

  it('a native app with a secret and a scheme with an authority (myapp://callback) exchanges its code with client_secret_basic', async () => {
    const redirect = 'myapp://callback';
    const { projectId, keys } = await appWith([redirect, 'https://app.example.com/oauth2redirect']);
    const config = await relyingParty(projectId, keys, true);
    const start = await authorization(config, redirect);
    const { callback, lastForm } = await signIn(new Browser(), start.url, redirect);
    expect(formActionOf(lastForm)).toBe("form-action 'self' myapp:");
    const tokens = await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: start.verifier, expectedState: start.state });
    expect(tokens.claims()?.aud).toBe(keys.clientId);

    // Its claimed https URL (RFC 8252 §7.2) works as well, and the page allows that origin instead.
    const claimed = await authorization(config, 'https://app.example.com/oauth2redirect');
    const viaHttps = await signIn(new Browser(), claimed.url, 'https://app.example.com/oauth2redirect');
    expect(formActionOf(viaHttps.lastForm)).toBe("form-action 'self' https://app.example.com");
  });

  it('a loopback redirect (RFC 8252 §7.3) is accepted on any port, its path and host still exact; a web app keeps exact ports', async () => {
    const { projectId, keys } = await appWith(['http://127.0.0.1/callback', 'http://[::1]:8080/callback'], { allow_pkce_only_token_exchange: true });
    const config = await relyingParty(projectId, keys, false);
    for (const redirect of ['http://127.0.0.1:53124/callback', 'http://[::1]:61000/callback']) {
      const start = await authorization(config, redirect);
      const { callback, lastForm } = await signIn(new Browser(), start.url, redirect);
      expect(formActionOf(lastForm)).toBe(`form-action 'self' ${new URL(redirect).origin}`);
      const tokens = await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: start.verifier, expectedState: start.state });
      expect(tokens.claims()?.aud).toBe(keys.clientId);
    }
    for (const redirect of ['http://127.0.0.1:53124/other', 'http://localhost:53124/callback', 'https://127.0.0.1:53124/callback']) {
      const refused = await new Browser().get((await authorization(config, redirect)).url.href);
      expect(refused.status, redirect).toBe(400);
      expect(refused.text).toContain('INVALID_REQUEST_PARAMETERS: redirect_uri');
    }

    // A web app with a development address on localhost: that port only (spec §2 exact match).
    const web = await appWith(['https://shop.example.com/cb', 'http://localhost:3000/cb'], {}, 'web');
    const webConfig = await relyingParty(web.projectId, web.keys, true);
    const exact = await new Browser().get((await authorization(webConfig, 'http://localhost:3000/cb')).url.href);
    expect(exact.status).toBe(303);
    const otherPort = await new Browser().get((await authorization(webConfig, 'http://localhost:3001/cb')).url.href);
    expect(otherPort.status).toBe(400);
  });

  it('a web app registered with only http://localhost:3000/callback (local development) stays a web app: no page between, prompt=none, its exact port', async () => {
    const local = 'http://localhost:3000/callback';
    const { projectId, keys } = await appWith([local], {}, 'web');
    const config = await relyingParty(projectId, keys, true);
    const browser = new Browser();
    await signIn(browser, (await authorization(config, local)).url, local);
    const toApp = (location: string) => location.startsWith(local);
    // Signed in already: straight back with a code, with or without prompt=none.
    const again = await authorization(config, local);
    const back = (await browser.follow(await browser.get(again.url.href), toApp)).at(-1) as BrowserResponse;
    expect(back.location ?? back.text).toMatch(/^http:\/\/localhost:3000\/callback\?code=/);
    const silent = new URL((await authorization(config, local)).url);
    silent.searchParams.set('prompt', 'none');
    const quiet = (await browser.follow(await browser.get(silent.href), toApp)).at(-1) as BrowserResponse;
    expect(quiet.location ?? quiet.text).toMatch(/^http:\/\/localhost:3000\/callback\?code=/);
    // Another port is another redirect URI, refused with a page.
    expect((await new Browser().get((await authorization(config, 'http://localhost:3001/callback')).url.href)).status).toBe(400);
  });

  it("a single-page app's loopback URI, signed in without a secret, is confirmed by the person too (another local process could listen there)", async () => {
    const local = 'http://localhost:5173/callback';
    const { projectId, keys } = await appWith([local], { allow_pkce_only_token_exchange: true }, 'spa');
    const config = await relyingParty(projectId, keys, false);
    const browser = new Browser();
    await signIn(browser, (await authorization(config, local)).url, local);
    const again = await authorization(config, local);
    const asked = (await browser.follow(await browser.get(again.url.href), (l) => l.startsWith(local))).at(-1) as BrowserResponse;
    expect(asked.status, asked.text).toBe(200);
    expect(asked.text).toContain('<h1>Continue to the app?</h1>');
  });

  it('a web app may not register a private-use scheme, nor a single-page app; a native app may (400 naming the URI)', async () => {
    const projectId = await createProject(admin);
    for (const type of ['web', 'spa'] as const) {
      const appId = await createApp(admin, projectId, `A ${type} app`, type);
      const res = await admin.api.post<{ issues: Array<{ field: string; code: string }> }>(apiPath(api.createAppKeys, { application: appId }), {
        redirectURI: ['https://app.example.com/cb', APP_SCHEME_REDIRECT],
      });
      expect(res.status).toBe(400);
      expect(res.body.issues.map((i) => [i.field, i.code])).toEqual([['redirectURI.1', 'validation.redirect_uri_app_scheme']]);
    }
    const native = await createApp(admin, projectId, 'A native app', 'native');
    expect((await admin.api.post(apiPath(api.createAppKeys, { application: native }), { redirectURI: [APP_SCHEME_REDIRECT] })).status).toBe(201);
    expect((await admin.api.get<{ applicationType: string }>(apiPath(api.getApp, { application: native }))).body.applicationType).toBe('native');
  });

  it('the API refuses redirect URIs the issuer cannot return to (400 naming each, nothing stored); what it accepts works at the issuer', async () => {
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId, 'Mobile app', 'native');
    const path = apiPath(api.createAppKeys, { application: appId });
    const cases: Array<[string[], Array<[string, string]>]> = [
      [['https://app.example.com/cb#done'], [['redirectURI.0', 'validation.redirect_uri_fragment']]],
      [
        [APP_SCHEME_REDIRECT, 'http://app.example.com/cb', 'https://localhost/cb'],
        [
          ['redirectURI.1', 'validation.redirect_uri_native_web'],
          ['redirectURI.2', 'validation.redirect_uri_native_web'],
        ],
      ],
      [['about:blank'], [['redirectURI.0', 'validation.invalid_uri']]],
      [['javascript:alert(1)'], [['redirectURI.0', 'validation.invalid_uri']]],
    ];
    for (const [redirectURI, expected] of cases) {
      const before = await databaseFingerprint(d.db);
      const res = await admin.api.post<{ error: string; issues: Array<{ field: string; code: string; message: string }> }>(path, { redirectURI });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues.map((i) => [i.field, i.code])).toEqual(expected);
      expect(res.body.issues.every((i) => i.message.length > 10)).toBe(true);
      expect(await databaseFingerprint(d.db)).toEqual(before);
    }
    // The same rule on update (PUT keys).
    const keys = await createKeys(admin, appId, [APP_SCHEME_REDIRECT]);
    const update = await admin.api.put(apiPath(api.updateAppKeys, { application: appId }), {
      redirectURI: [APP_SCHEME_REDIRECT, 'http://app.example.com/cb'],
    });
    expect(update.status).toBe(400);
    const config = await relyingParty(projectId, keys, true);
    const start = await authorization(config, APP_SCHEME_REDIRECT);
    expect((await signIn(new Browser(), start.url, APP_SCHEME_REDIRECT)).callback).toMatch(/^com\.example\.app:\/oauth2redirect\?code=/);
  });

  it('a list stored before these rules still serves its other redirect URIs; the one it cannot return to is refused with a page', async () => {
    const { projectId, keys } = await appWith(['https://app.example.com/cb']);
    // Such a list can no longer be saved through the API: written as an older version stored it.
    await d.db.query('UPDATE application_keys SET redirect_uris = $2 WHERE client_id = $1', [
      keys.clientId,
      ['https://app.example.com/cb#done', APP_SCHEME_REDIRECT, 'http://app.example.com/cb'],
    ]);
    const config = await relyingParty(projectId, keys, true);
    const start = await authorization(config, APP_SCHEME_REDIRECT);
    const { callback } = await signIn(new Browser(), start.url, APP_SCHEME_REDIRECT);
    expect(
      (await client.authorizationCodeGrant(config, new URL(callback), { pkceCodeVerifier: start.verifier, expectedState: start.state })).access_token,
    ).toBeTruthy();
    for (const redirect of ['https://app.example.com/cb#done', 'http://app.example.com/cb']) {
      const refused = await new Browser().get((await authorization(config, redirect)).url.href);
      expect(refused.status, redirect).toBe(400);
      expect(refused.location).toBeNull();
    }
  });
});
