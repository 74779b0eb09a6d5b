import * as client from 'openid-client';
import { beforeAll, expect, it, vi } from 'vitest';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from '../support/app.ts';
import { Browser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { REDIRECT } from '../support/fixtures.ts';
import {
  addClient,
  authorizationRequest,
  authorize,
  BROWSER_ACCEPT,
  callbackOf,
  decodeJwt,
  exchangeCode,
  expectAuthorizationError,
  expectCallback,
  expectCode,
  expectTokenError,
  expectTokens,
  expectUserinfo,
  fullSignIn,
  isLoginPage,
  logIn,
  nextSecond,
  openAuthorization,
  randomValue,
  refreshRequest,
  relyingParty,
  silentAuthorization,
  staticClient,
  tokenRequest,
  untilEpoch,
  USER_INTERFACE_ERRORS,
  userinfo,
  validateIdToken,
  validateServerConfiguration,
  type StaticClient,
} from './support.ts';

// The OpenID Foundation's Basic OP certification plan (oidcc-basic-certification-test-plan,
// variant response_type=code, client_auth_type=client_secret_basic, response_mode=default,
// static client), one `it` per test module, named by its module id: what the module asserts, as
// its conditions check it. Modules that do not apply are in docs/conformance.md with the reason.
describeEachDatabase('Basic OP (oidcc-basic-certification-test-plan)', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  /** The plan's static client (one project, one web app), shared by the modules that only sign in. */
  let c: StaticClient;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    c = await staticClient(t, admin);
  });

  /** The modules whose request only adds parameters: the authorization must succeed as oidcc-server's does. */
  async function succeedsWith(extra: Record<string, string | null>) {
    const { request, tokens, claims } = await fullSignIn(t, new Browser(), c, uniqueEmail('basic'), extra);
    expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
    return { request, tokens, claims };
  }

  it('oidcc-server', async () => {
    await validateServerConfiguration(c);
    const email = uniqueEmail('server');
    const request = authorizationRequest(c);
    const callback = await authorize(t, new Browser(), request, email);
    expect(callback.mode).toBe('query');
    // RFC 9207: the issuer states itself in the response (authorization_response_iss_parameter_supported).
    expect(callback.params.get('iss')).toBe(c.issuer);
    const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request)));
    const claims = await validateIdToken(c, tokens.id_token, { nonce: request.nonce, accessToken: tokens.access_token });
    // EnsureIdTokenDoesNotContainName; EnsureIdTokenDoesNotContainNonRequestedClaims (openid email: no user claims in the ID token).
    expect(Object.keys(claims)).toEqual(expect.arrayContaining(['aud', 'exp', 'iat', 'iss', 'nonce', 'sub']));
    for (const claim of Object.keys(claims)) {
      expect(['iss', 'sub', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'acr', 'amr', 'azp', 'at_hash', 'c_hash', 'sid']).toContain(claim);
    }
    // CallProtectedResourceWithBearerToken: the resource is the userinfo endpoint.
    expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
  });

  it('oidcc-response-type-missing', async () => {
    const request = authorizationRequest(c, { response_type: null });
    const response = await openAuthorization(new Browser(), request);
    // Either an error page (the suite's screenshot) or an error returned to the client: invalid_request or unsupported_response_type.
    const callback = callbackOf(response);
    if (callback === null) {
      expect(response.status).toBe(400);
      expect(response.location).toBeNull();
    } else {
      expect(['invalid_request', 'unsupported_response_type']).toContain(expectAuthorizationError(callback, request));
    }
  });

  it('oidcc-idtoken-signature', async () => {
    // The client registered no id_token_signed_response_alg: the ID token is RS256 (OpenID Connect Core
    // §3.1.3.7) and names its key (OIDCC-10.1, EnsureIdTokenContainsKid).
    const { tokens } = await succeedsWith({});
    expect(decodeJwt(tokens.id_token).header).toMatchObject({ alg: 'RS256', kid: expect.any(String) });
  });

  for (const how of ['get', 'post-header', 'post-body'] as const) {
    it(`oidcc-userinfo-${how}`, async () => {
      const { tokens, claims } = await fullSignIn(t, new Browser(), c, uniqueEmail('userinfo'));
      const info = expectUserinfo(await userinfo(c, tokens.access_token, how), claims.sub as string);
      expect(info).toMatchObject({ email: expect.any(String), email_verified: true });
    });
  }

  it('oidcc-ensure-request-without-nonce-succeeds-for-code-flow', async () => {
    const request = authorizationRequest(c, { nonce: null });
    expect(request.url.searchParams.has('nonce')).toBe(false);
    const callback = await authorize(t, new Browser(), request, uniqueEmail('no-nonce'));
    const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request)));
    await validateIdToken(c, tokens.id_token, { nonce: null });
  });

  it('oidcc-scope-profile', async () => {
    expect(c.metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'profile']));
    const email = uniqueEmail('profile');
    const { tokens, claims } = await fullSignIn(t, new Browser(), c, email, { scope: 'openid profile' });
    const info = expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
    // What the issuer knows of a person (docs/decisions/0028); the suite warns for the profile claims
    // it has not (name, given_name, family_name, …: no name is collected).
    expect(info).toEqual({ sub: claims.sub, preferred_username: email, locale: 'en' });
  });

  /** oidcc-scope-email's checks (its subclasses reorder the request). */
  async function scopeEmail(extra: Record<string, string>, open?: (browser: Browser, url: URL) => Promise<URL>) {
    expect(c.metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email']));
    const email = uniqueEmail('email');
    const request = authorizationRequest(c, extra);
    const browser = new Browser();
    const callback = await authorize(t, browser, open ? { ...request, url: await open(browser, request.url) } : request, email);
    const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request)));
    const claims = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    // EnsureIdTokenDoesNotContainEmailForScopeEmail, EnsureIdTokenDoesNotContainName: the claims come from userinfo.
    expect(claims).not.toHaveProperty('email');
    expect(claims).not.toHaveProperty('name');
    const info = expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
    expect(info).toMatchObject({ email, email_verified: true });
    expect(info).not.toHaveProperty('name');
  }

  it('oidcc-scope-email', async () => {
    await scopeEmail({ scope: 'openid email' });
  });

  it('oidcc-ensure-other-scope-order-succeeds', async () => {
    await scopeEmail({ scope: 'email openid' });
  });

  it('oidcc-alternate-happy-flow', async () => {
    // The scope reversed and the query's parameters in another order (RFC 6749 §3.3).
    await scopeEmail({ scope: 'email openid' }, async (_browser, url) => {
      const reordered = new URL(url.href);
      reordered.search = new URLSearchParams([...url.searchParams].reverse()).toString();
      return reordered;
    });
  });

  for (const display of ['page', 'popup']) {
    it(`oidcc-display-${display}`, async () => {
      const browser = new Browser();
      const request = authorizationRequest(c, { display });
      const page = await openAuthorization(browser, request);
      expect(isLoginPage(page)).toBe(true);
      expectCode(expectCallback(await logIn(t, browser, page, uniqueEmail('display'))), request);
    });
  }

  it('oidcc-prompt-login', async () => {
    const browser = new Browser();
    const email = uniqueEmail('prompt-login');
    const first = await fullSignIn(t, browser, c, email);
    // The second authorization asks the signed-in person to log in again (ExpectSecondLoginPage)…
    const request = authorizationRequest(c, { prompt: 'login' });
    const page = await openAuthorization(browser, request);
    expect(isLoginPage(page)).toBe(true);
    await nextSecond();
    const tokens = expectTokens(await exchangeCode(c, expectCode(expectCallback(await logIn(t, browser, page, email)), request)));
    const second = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    // …and a new authentication has a new auth_time (CheckIdTokenAuthTimeClaimsDifferIfPresent).
    expect(second.sub).toBe(first.claims.sub);
    if (first.claims.auth_time !== undefined && second.auth_time !== undefined) expect(second.auth_time).not.toBe(first.claims.auth_time);
    // (The first ID token states no auth_time; the second's is this login's, after the first token.)
    if (second.auth_time !== undefined) expect(second.auth_time as number).toBeGreaterThan(first.claims.iat as number);
  });

  it('oidcc-prompt-none-not-logged-in', async () => {
    // A long state, which the error must carry back unchanged.
    const request = authorizationRequest(c, { prompt: 'none', state: randomValue(128) });
    const callback = expectCallback(await openAuthorization(new Browser(), request));
    expect(USER_INTERFACE_ERRORS).toContain(expectAuthorizationError(callback, request));
  });

  /** AbstractOIDCCSameAuthTwiceServerTest: the second authorization shows no page; the same sub, and auth_time if present. */
  async function sameAuthTwice(firstExtra: Record<string, string>, secondExtra: (idToken: string) => Record<string, string>) {
    const browser = new Browser();
    const first = await fullSignIn(t, browser, c, uniqueEmail('twice'), firstExtra);
    const request = authorizationRequest(c, secondExtra(first.tokens.id_token));
    const tokens = expectTokens(await exchangeCode(c, expectCode(await silentAuthorization(browser, request), request)));
    const second = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    expect(second.sub).toBe(first.claims.sub);
    if (first.claims.auth_time !== undefined || second.auth_time !== undefined) expect(second.auth_time).toBe(first.claims.auth_time);
    return { first: first.claims, second };
  }

  it('oidcc-prompt-none-logged-in', async () => {
    await sameAuthTwice({}, () => ({ prompt: 'none' }));
  });

  it('oidcc-max-age-1', async () => {
    const browser = new Browser();
    const email = uniqueEmail('max-age-1');
    const first = await fullSignIn(t, browser, c, email);
    // Past max_age=1 (the suite waits 2 seconds): the person must log in again.
    await untilEpoch(((first.claims.auth_time as number | undefined) ?? (first.claims.iat as number)) + 2);
    const request = authorizationRequest(c, { max_age: '1' });
    const page = await openAuthorization(browser, request);
    expect(isLoginPage(page)).toBe(true);
    const tokens = expectTokens(await exchangeCode(c, expectCode(expectCallback(await logIn(t, browser, page, email)), request)));
    const second = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    // CheckIdTokenAuthTimeClaimPresentDueToMaxAge, CheckSecondIdTokenAuthTimeIsLaterIfPresent, CheckIdTokenAuthTimeIsRecentIfPresent.
    expect(second.auth_time).toEqual(expect.any(Number));
    if (first.claims.auth_time !== undefined) expect(second.auth_time as number).toBeGreaterThan(first.claims.auth_time as number);
    expect(Math.floor(Date.now() / 1000) - (second.auth_time as number)).toBeLessThan(60);
  });

  it('oidcc-max-age-10000', async () => {
    const { first, second } = await sameAuthTwice({ max_age: '15000' }, () => ({ max_age: '10000' }));
    expect(first.auth_time).toEqual(expect.any(Number));
    expect(second.auth_time).toEqual(expect.any(Number));
  });

  it('oidcc-ensure-request-with-unknown-parameter-succeeds', async () => {
    await succeedsWith({ extra: 'foobar' });
  });

  it('oidcc-id-token-hint', async () => {
    await sameAuthTwice({}, (idToken) => ({ prompt: 'none', id_token_hint: idToken }));
  });

  it('oidcc-login-hint', async () => {
    const email = uniqueEmail('login-hint');
    const browser = new Browser();
    const request = authorizationRequest(c, { login_hint: email });
    const page = await openAuthorization(browser, request);
    // The hint fills in page 1's field (docs/decisions/0028).
    expect(page.text).toContain(`value="${email}"`);
    expectCode(expectCallback(await logIn(t, browser, page, email)), request);
  });

  it('oidcc-ui-locales', async () => {
    // 'se' (the suite's default) is not a language of the pages: they fall back, without an error.
    await succeedsWith({ ui_locales: 'se' });
  });

  it('oidcc-claims-locales', async () => {
    await succeedsWith({ claims_locales: 'se' });
  });

  it('oidcc-ensure-request-with-acr-values-succeeds', async () => {
    const supported = c.metadata.acr_values_supported as string[] | undefined;
    const { claims } = await succeedsWith({ acr_values: (supported ?? ['1', '2']).join(' ') });
    // No acr is claimed (the suite only warns: the minimum is that the request does not fail).
    expect(claims).not.toHaveProperty('acr');
  });

  /** AbstractOIDCCAuthCodeReuse: the code, used a second time, is refused with invalid_grant. */
  async function reuseCode(before?: () => void) {
    const request = authorizationRequest(c);
    const code = expectCode(await authorize(t, new Browser(), request, uniqueEmail('reuse')), request);
    const tokens = expectTokens(await exchangeCode(c, code));
    before?.();
    expect(expectTokenError(await exchangeCode(c, code))).toBe('invalid_grant');
    return tokens;
  }

  it('oidcc-codereuse', async () => {
    await reuseCode();
  });

  it('oidcc-codereuse-30seconds', async () => {
    // 30 seconds later as the issuer tells time (within the code's 60 s lifetime: refused as used, not as expired).
    const realNow = Date.now.bind(Date);
    const tokens = await reuseCode(() => vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 30_000));
    try {
      // The access token issued for the code is revoked with it (RFC 6749 §4.1.2; the suite warns otherwise).
      expect((await userinfo(c, tokens.access_token)).status).toBe(401);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('oidcc-ensure-registered-redirect-uri', async () => {
    const request = authorizationRequest(c, { redirect_uri: `${REDIRECT}/${randomValue()}` });
    const response = await new Browser().get(request.url.href, BROWSER_ACCEPT);
    // An error page (the suite's screenshot), never a redirect to the unregistered address.
    expect(response.status).toBe(400);
    expect(response.location).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.text).toContain('redirect_uri');
  });

  it('oidcc-ensure-post-request-succeeds', async () => {
    const browser = new Browser();
    const request = authorizationRequest(c);
    const page = await openAuthorization(browser, request, 'POST');
    expect(isLoginPage(page)).toBe(true);
    const tokens = expectTokens(await exchangeCode(c, expectCode(expectCallback(await logIn(t, browser, page, uniqueEmail('post'))), request)));
    await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
  });

  it('oidcc-server-client-secret-post', async () => {
    expect(c.metadata.token_endpoint_auth_methods_supported).toContain('client_secret_post');
    const request = authorizationRequest(c);
    const callback = await authorize(t, new Browser(), request, uniqueEmail('secret-post'));
    const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request), { auth: 'post' }));
    const claims = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
    // openid-client as the relying party with client_secret_post agrees.
    const config = await relyingParty(c.issuer, c.keys, 'post');
    const again = authorizationRequest(c);
    const code = await authorize(t, new Browser(), again, uniqueEmail('secret-post'));
    const viaClient = await client.authorizationCodeGrant(config, new URL(code.response.location as string), {
      expectedState: again.state,
      expectedNonce: again.nonce,
    });
    expect(viaClient.claims()?.aud).toBe(c.keys.clientId);
  });

  it('oidcc-unsigned-request-object-supported-correctly-or-rejected-as-unsupported', async () => {
    // Request objects are not supported (discovery states no request_parameter_supported): an unsigned
    // one is rejected with request_not_supported at the client (OpenID Connect Core §3.1.2.6), which
    // the module accepts (the suite then ends it as skipped).
    expect(c.metadata.request_parameter_supported ?? false).toBe(false);
    const request = authorizationRequest(c);
    const object = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ ...request.params, iss: c.keys.clientId, aud: c.issuer }),
    ).toString('base64url')}.`;
    const withObject = authorizationRequest(c, { state: request.state, request: object });
    const callback = expectCallback(await openAuthorization(new Browser(), withObject));
    expect(expectAuthorizationError(callback, withObject)).toBe('request_not_supported');
  });

  it('oidcc-claims-essential', async () => {
    // The claims parameter is not supported (claims_parameter_supported: false) and is ignored: the
    // request succeeds. The essential name is not given (the suite warns: no name is collected).
    expect(c.metadata.claims_parameter_supported).toBe(false);
    const { tokens, claims } = await succeedsWith({ claims: JSON.stringify({ userinfo: { name: { essential: true } } }) });
    expect(claims).not.toHaveProperty('name');
    expect((await userinfo(c, tokens.access_token)).body).not.toHaveProperty('name');
  });

  it('oidcc-ensure-request-object-with-redirect-uri', async () => {
    // The request object carries the registered redirect URI, the query an unregistered one: as
    // request objects are not processed, the issuer must not redirect anywhere (an error page).
    const request = authorizationRequest(c);
    const object = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ ...request.params, iss: c.keys.clientId, aud: c.issuer }),
    ).toString('base64url')}.`;
    const outer = authorizationRequest(c, { state: request.state, request: object, redirect_uri: `${REDIRECT}/${randomValue()}` });
    const response = await new Browser().get(outer.url.href, BROWSER_ACCEPT);
    expect(response.status).toBe(400);
    expect(response.location).toBeNull();
  });

  it('oidcc-refresh-token', async () => {
    // Two clients of the project (AbstractOIDCCMultipleClient); offline_access with prompt=consent
    // (AddPromptConsentToAuthorizationEndpointRequestIfScopeContainsOfflineAccess, OpenID Connect Core §11).
    expect(c.metadata.grant_types_supported).toContain('refresh_token');
    const c2 = await addClient(t, admin, c.projectId, { name: 'Conformance client 2' });
    const scope = 'openid email offline_access';
    const signIn = async (cl: StaticClient) => {
      const first = await fullSignIn(t, new Browser(), cl, uniqueEmail('refresh'), { scope, prompt: 'consent' });
      expect(first.tokens.refresh_token).toEqual(expect.any(String));
      return first;
    };
    const firsts = [await signIn(c), await signIn(c2)] as const;
    // WaitForOneSecond: a new ID token's iat differs.
    await nextSecond();
    const refreshed = async (cl: StaticClient, first: (typeof firsts)[number], firstClient: boolean) => {
      const response = await refreshRequest(cl, first.tokens.refresh_token as string, firstClient ? scope : undefined);
      const second = expectTokens(response);
      // EnsureMinimumRefreshTokenLength/Entropy (a new refresh token: rotation, docs/decisions/0028).
      expect(second.refresh_token).toEqual(expect.any(String));
      expect(Buffer.byteLength(second.refresh_token as string) * 8).toBeGreaterThanOrEqual(128);
      expect(second.access_token).not.toBe(first.tokens.access_token);
      // CompareIdTokenClaims (OpenID Connect Core §12.2).
      const claims = await validateIdToken(cl, second.id_token);
      expect(claims.iss).toBe(first.claims.iss);
      expect(claims.sub).toBe(first.claims.sub);
      expect(claims.aud).toEqual(first.claims.aud);
      expect(claims.iat).not.toBe(first.claims.iat);
      expect(claims.azp).toBe(first.claims.azp);
      if (claims.auth_time !== undefined) expect(claims.auth_time).toBe(first.claims.auth_time);
      expectUserinfo(await userinfo(cl, second.access_token), claims.sub as string);
      return second.refresh_token as string;
    };
    await refreshed(c, firsts[0], true);
    const secondClients = await refreshed(c2, firsts[1], false);
    // Client 2's refresh token presented by client 1 (RefreshTokenRequestExpectingErrorSteps).
    expect(expectTokenError(await tokenRequest(c, { grant_type: 'refresh_token', refresh_token: secondClients, scope }))).toBe('invalid_grant');
  });

  it('oidcc-ensure-request-with-valid-pkce-succeeds', async () => {
    const { tokens, claims } = await fullSignIn(t, new Browser(), c, uniqueEmail('pkce'), {}, { pkce: true });
    expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
  });
});
