import { generateKeyPairSync, sign } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from '../support/app.ts';
import { Browser, type BrowserResponse } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { logoutForm } from '../support/relying-party.ts';
import {
  authorizationRequest,
  BROWSER_ACCEPT,
  expectAuthorizationError,
  expectCallback,
  fullSignIn,
  httpsDiscovery,
  openAuthorization,
  POST_LOGOUT,
  randomValue,
  staticClient,
  USER_INTERFACE_ERRORS,
  type StaticClient,
} from './support.ts';

// The OpenID Foundation's RP-Initiated Logout OP plan (oidcc-rp-initiated-logout-certification-test-plan),
// one `it` per module. Each signs a person in (AbstractOIDCCRpInitiatedLogout: a 128-character
// state), sends the browser to the end_session_endpoint as the module does, and checks where
// the browser ends: back at the registered post_logout_redirect_uri with its state, on the
// issuer's signed-out page, or on a page that does not send it back (an error, or a question).
describeEachDatabase('RP-Initiated Logout OP (oidcc-rp-initiated-logout-certification-test-plan)', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  /** The plan's client, with POST_LOGOUT registered as its post_logout_redirect_uri. */
  let c: StaticClient;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    c = await staticClient(t, admin, { postLogout: true });
  });

  /** A person signed in in a new browser: the browser and the ID token. */
  async function signedIn(): Promise<{ browser: Browser; idToken: string; claims: Record<string, unknown> }> {
    const browser = new Browser();
    const { tokens, claims } = await fullSignIn(t, browser, c, uniqueEmail('logout'), { state: randomValue(128) });
    return { browser, idToken: tokens.id_token, claims };
  }

  /**
   * The browser opens the end_session_endpoint with exactly `parameters` (CreateEndSessionEndpointRequest
   * and its variations send no client_id; openid-client's buildEndSessionUrl would add one).
   */
  const endSession = (browser: Browser, parameters: Record<string, string>) => {
    const url = new URL(String(c.metadata.end_session_endpoint));
    for (const [key, value] of Object.entries(parameters)) url.searchParams.set(key, value);
    return browser.get(url.href, BROWSER_ACCEPT);
  };

  /** The page goes on (its script, or the person's click on "Sign out"): answers where the browser is sent. */
  async function goOn(browser: Browser, page: BrowserResponse): Promise<BrowserResponse> {
    const { action, xsrf } = logoutForm(page);
    const answered = await browser.request(action, { form: { xsrf, logout: 'yes' }, headers: BROWSER_ACCEPT });
    expect(answered.status).toBe(303);
    return answered;
  }

  /** A page that signs out without a question: the ID token proved who asks (its script submits the form). */
  function expectGoesOnByItself(page: BrowserResponse): void {
    expect(page.status).toBe(200);
    expect(page.location).toBeNull();
    expect(page.text).toMatch(/<script>[^<]*\.submit\(\)/);
  }

  /** The issuer's "you are signed out" page (ExpectSuccessfulLogoutPage), not a return to the client. */
  async function expectSignedOutPage(browser: Browser, answered: BrowserResponse): Promise<void> {
    expect(answered.location).not.toMatch(new RegExp(`^${POST_LOGOUT}`));
    const page = await browser.get(answered.location as string, BROWSER_ACCEPT);
    expect(page.status).toBe(200);
    expect(page.text).toContain('You are signed out');
  }

  /**
   * A request the OP must not send back to the client (ExpectPostLogoutRedirectUriNotRegisteredErrorPage,
   * ExpectInvalidIdTokenHintErrorPage, ExpectIdTokenHintRequiredErrorPage): an error page, or a
   * question whose answer does not send the browser to the post_logout_redirect_uri either.
   */
  async function expectNotSentBack(browser: Browser, page: BrowserResponse): Promise<'error' | 'asked'> {
    expect(page.location).toBeNull();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    if (page.status === 400) return 'error';
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>');
    expect(page.text).toContain('name="logout" value="yes"');
    await expectSignedOutPage(browser, await goOn(browser, page));
    return 'asked';
  }

  /** The prompt=none authorization after the logout must fail: the person is signed out (OIDCC-3.1.2.6). */
  async function expectSignedOut(browser: Browser): Promise<void> {
    const request = authorizationRequest(c, { prompt: 'none', state: randomValue(128) });
    const callback = expectCallback(await openAuthorization(browser, request));
    expect(USER_INTERFACE_ERRORS).toContain(expectAuthorizationError(callback, request));
  }

  /** The person is still signed in (an error page signed no one out). */
  async function expectStillSignedIn(browser: Browser): Promise<void> {
    const request = authorizationRequest(c, { prompt: 'none' });
    expect(expectCallback(await openAuthorization(browser, request)).params.get('code')).toEqual(expect.any(String));
  }

  it('oidcc-rp-initiated-logout-discovery-endpoint-verification', async () => {
    // CheckDiscEndSessionEndpoint: present, the issuer's own…
    expect(c.metadata.end_session_endpoint).toBe(`${c.issuer}/session/end`);
    // …and with an https PUBLIC_URL, as deployed, it and every endpoint are https (CheckDiscEndpointAllEndpointsAreHttps).
    const deployed = await httpsDiscovery(d.db, c.projectId);
    const doc = JSON.parse(deployed.response.body) as Record<string, unknown>;
    expect(doc.end_session_endpoint).toBe(`${deployed.issuer}/session/end`);
    for (const key of Object.keys(doc).filter((k) => k.endsWith('_endpoint'))) expect(new URL(String(doc[key])).protocol, key).toBe('https:');
  });

  it('oidcc-rp-initiated-logout', async () => {
    const { browser, idToken } = await signedIn();
    const state = randomValue(128);
    const page = await endSession(browser, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT, state });
    expectGoesOnByItself(page);
    const back = new URL((await goOn(browser, page)).location as string);
    // CheckPostLogoutState; CheckForUnexpectedParametersInPostLogoutRedirect: state alone.
    expect(`${back.origin}${back.pathname}`).toBe(POST_LOGOUT);
    expect([...back.searchParams]).toEqual([['state', state]]);
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-bad-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const page = await endSession(browser, {
      id_token_hint: idToken,
      post_logout_redirect_uri: `https://app.example.com/${randomValue()}`,
      state: 'x',
    });
    expect(await expectNotSentBack(browser, page)).toBe('error');
    expect(page.text).toContain('post_logout_redirect_uri not registered');
    await expectStillSignedIn(browser);
  });

  it('oidcc-rp-initiated-logout-modified-id-token-hint', async () => {
    const { browser, idToken } = await signedIn();
    // ChangeIdTokenToAlgNone: the same claims, alg none, no signature.
    const [, payload] = idToken.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${payload}.`;
    const page = await endSession(browser, { id_token_hint: unsigned, post_logout_redirect_uri: POST_LOGOUT, state: 'x' });
    expect(await expectNotSentBack(browser, page)).toBe('error');
    await expectStillSignedIn(browser);
  });

  it('oidcc-rp-initiated-logout-no-id-token-hint', async () => {
    const { browser } = await signedIn();
    const page = await endSession(browser, { post_logout_redirect_uri: POST_LOGOUT, state: 'x' });
    // Nothing proves who asks: the person is asked; signing out then ends on the issuer's page.
    expect(await expectNotSentBack(browser, page)).toBe('asked');
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-no-params', async () => {
    const { browser } = await signedIn();
    const page = await browser.get(String(c.metadata.end_session_endpoint), BROWSER_ACCEPT);
    expect(await expectNotSentBack(browser, page)).toBe('asked');
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-no-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const page = await endSession(browser, { id_token_hint: idToken, state: randomValue(128) });
    expectGoesOnByItself(page);
    await expectSignedOutPage(browser, await goOn(browser, page));
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-no-state', async () => {
    const { browser, idToken } = await signedIn();
    const page = await endSession(browser, { id_token_hint: idToken, post_logout_redirect_uri: POST_LOGOUT });
    expectGoesOnByItself(page);
    // CheckNoPostLogoutState: back with no parameter at all.
    expect((await goOn(browser, page)).location).toBe(POST_LOGOUT);
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-only-state', async () => {
    const { browser } = await signedIn();
    const page = await endSession(browser, { state: randomValue(128) });
    expect(await expectNotSentBack(browser, page)).toBe('asked');
    await expectSignedOut(browser);
  });

  it('oidcc-rp-initiated-logout-query-added-to-post-logout-redirect-uri', async () => {
    const { browser, idToken } = await signedIn();
    const page = await endSession(browser, { id_token_hint: idToken, post_logout_redirect_uri: `${POST_LOGOUT}?foo=bar`, state: 'x' });
    expect(await expectNotSentBack(browser, page)).toBe('error');
    await expectStillSignedIn(browser);
  });

  it('oidcc-rp-initiated-logout-bad-id-token-hint', async () => {
    const { browser, claims } = await signedIn();
    // GenerateFakeIdTokenClaims, SignFakeIdToken: the person's claims, signed by a key of the suite's own.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const now = Math.floor(Date.now() / 1000);
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', kid: 'suite-key', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ ...claims, iat: now, exp: now + 300 })).toString('base64url');
    const signature = sign('sha256', Buffer.from(`${header}.${body}`), privateKey).toString('base64url');
    const page = await endSession(browser, { id_token_hint: `${header}.${body}.${signature}`, post_logout_redirect_uri: POST_LOGOUT, state: 'x' });
    expect(await expectNotSentBack(browser, page)).toBe('error');
    await expectStillSignedIn(browser);
  });
});
