import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, startTestApp, type TestApp } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { startExternalProvider, type ExternalProvider } from './support/external-provider.ts';
import { postLogin } from './support/sign-in.ts';

describeWithDatabase('sign-in through an external OpenID provider', (t) => {
  let external: ExternalProvider;
  let app: TestApp;

  beforeAll(async () => {
    // The console's address must be known before the provider registers it as a redirect URI.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    external = await startExternalProvider(base);
    app = await startTestApp(t.db, {
      listen: true,
      port,
      env: { OIDC_ISSUER: external.issuer, OIDC_CLIENT_ID: external.clientId, OIDC_CLIENT_SECRET: external.clientSecret },
    });
  });
  afterAll(async () => {
    await app?.close();
    await external?.close();
  });

  /** authurl → the external provider → back at /login?code=…; answers the callback URL. */
  async function throughExternal(browser: Browser): Promise<string> {
    const res = await browser.get(
      `${app.baseUrl}/api/authurl?redirectURL=${encodeURIComponent(`${app.baseUrl}/login`)}&state_next=%2Fproject%2Fx%2Fapps`,
    );
    expect(res.status, res.text).toBe(200);
    const { authUrl } = res.json<{ authUrl: string }>();
    expect(authUrl.startsWith(`${external.issuer}/auth?`)).toBe(true);
    const params = new URL(authUrl).searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('scope')).toBe('openid email');
    expect(params.get('client_id')).toBe(external.clientId);
    const hops = await browser.follow(await browser.get(authUrl), (url) => url.startsWith(`${app.baseUrl}/login`));
    const callback = (hops.at(-1) as BrowserResponse).location as string;
    expect(callback).toMatch(new RegExp(`^${app.baseUrl}/login\\?code=`));
    return callback;
  }

  it('does not mount the built-in provider', async () => {
    const res = await new Browser().get(`${app.baseUrl}/idp/.well-known/openid-configuration`);
    expect(res.status).toBe(404);
  });

  it('signs in over HTTP with the email the provider verified, and logs out through its end-session endpoint', async () => {
    external.nextUser.email = 'External.User@Example.test';
    external.nextUser.verified = true;
    const browser = new Browser();
    const login = await postLogin(app, browser, await throughExternal(browser));
    expect(login.status, login.text).toBe(200);
    expect(login.json()).toEqual({ next: '/project/x/apps' });

    const account = await browser.get(`${app.baseUrl}/api/account`);
    expect(account.status).toBe(200);
    expect(account.json()).toMatchObject({ email: 'external.user@example.test' });

    const logout = await browser.get(`${app.baseUrl}/api/logout`);
    const redirect = new URL(logout.json<{ redirectUrl: string }>().redirectUrl);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${external.issuer}/session/end`);
    expect(redirect.searchParams.get('post_logout_redirect_uri')).toBe(`${app.baseUrl}/`);
    expect(redirect.searchParams.get('id_token_hint')).toBeTruthy();
    expect((await browser.get(`${app.baseUrl}/api/account`)).status).toBe(401);
  });

  it('refuses an email the provider has not verified', async () => {
    external.nextUser.email = 'unverified@example.test';
    external.nextUser.verified = false;
    const browser = new Browser();
    const login = await postLogin(app, browser, await throughExternal(browser));
    expect(login.status).toBe(400);
    expect(login.json()).toMatchObject({ error: 'login_failed', message: 'The email address is not verified by the identity provider' });
    const { rows } = await t.db.query("SELECT 1 FROM accounts WHERE email = 'unverified@example.test'");
    expect(rows).toEqual([]);
  });

  it('answers login_failed for a code the provider does not know', async () => {
    external.nextUser.verified = true;
    const browser = new Browser();
    const callback = new URL(await throughExternal(browser));
    callback.searchParams.set('code', 'made-up-code');
    const login = await postLogin(app, browser, callback.href);
    expect(login.status).toBe(400);
    expect(login.json()).toMatchObject({ error: 'login_failed' });
  });
});

describeWithDatabase('an external OpenID provider that cannot be reached', (t) => {
  it('answers 500 internal with a clear message, and works once it is back (discovery is retried)', async () => {
    const port = await freePort();
    const appPort = await freePort();
    const app = await startTestApp(t.db, {
      listen: true,
      port: appPort,
      env: {
        OIDC_ISSUER: `http://127.0.0.1:${port}`,
        OIDC_CLIENT_ID: 'latchkey-external-test',
        OIDC_CLIENT_SECRET: 'external-test-secret-0123456789abcdef',
      },
    });
    try {
      const url = `${app.baseUrl}/api/authurl?redirectURL=${encodeURIComponent(`${app.baseUrl}/login`)}`;
      const down = await new Browser().get(url);
      expect(down.status).toBe(500);
      expect(down.json()).toEqual({ error: 'internal', message: 'The identity provider could not be reached; try again shortly' });

      const external = await startExternalProvider(app.baseUrl, port);
      try {
        const up = await new Browser().get(url);
        expect(up.status, up.text).toBe(200);
        expect(up.json<{ authUrl: string }>().authUrl.startsWith(`http://127.0.0.1:${port}/auth?`)).toBe(true);
      } finally {
        await external.close();
      }
    } finally {
      await app.close();
    }
  });
});
