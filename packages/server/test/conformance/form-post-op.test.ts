import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from '../support/app.ts';
import { Browser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { REDIRECT } from '../support/fixtures.ts';
import {
  authorizationRequest,
  BROWSER_ACCEPT,
  callbackOf,
  exchangeCode,
  expectAuthorizationError,
  expectCallback,
  expectCode,
  expectTokens,
  expectUserinfo,
  logIn,
  openAuthorization,
  randomValue,
  staticClient,
  USER_INTERFACE_ERRORS,
  userinfo,
  validateIdToken,
  type Callback,
  type StaticClient,
} from './support.ts';

const FORM_POST = { response_mode: 'form_post' } as const;

/**
 * A form_post answer (OAuth 2.0 Form Post Response Mode): a page whose form posts the parameters to
 * the client's redirect URI, submitted by its script, which the page's CSP allows (by hash), as it
 * allows the form's target (docs/decisions/0028); nothing in a URL.
 */
function expectFormPost(callback: Callback): URLSearchParams {
  expect(callback.mode).toBe('form_post');
  const { response } = callback;
  expect(response.location).toBeNull();
  expect(response.text).toContain('document.forms[0].submit()');
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  expect(csp).toContain(`form-action 'self' ${new URL(REDIRECT).origin}`);
  return callback.params;
}

/** The POST the browser makes to the client's redirect URI with the form's parameters. */
function postedToClient(params: URLSearchParams): Request {
  return new Request(REDIRECT, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString() });
}

// The OpenID Foundation's Form Post OP plan (oidcc-formpost-basic-certification-test-plan: the Basic
// OP modules with response_mode=form_post), represented by the modules whose answer reaches the
// client differently in that mode: a success, the errors returned to the client, and the
// refusal that must not reach it. docs/conformance.md lists the rest.
describeEachDatabase('Form Post OP (oidcc-formpost-basic-certification-test-plan)', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let c: StaticClient;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    c = await staticClient(t, admin);
  });

  it('oidcc-server [form_post]', async () => {
    expect(c.metadata.response_modes_supported).toContain('form_post');
    const browser = new Browser();
    const request = authorizationRequest(c, FORM_POST);
    const callback = expectCallback(await logIn(t, browser, await openAuthorization(browser, request), uniqueEmail('form-post')));
    const params = expectFormPost(callback);
    expect(params.get('iss')).toBe(c.issuer);
    expectCode(callback, request);
    // openid-client, receiving the POST at its redirect URI, checks state and iss and exchanges the code.
    const tokens = await client.authorizationCodeGrant(c.config, postedToClient(params), {
      expectedState: request.state,
      expectedNonce: request.nonce,
    });
    const claims = await validateIdToken(c, tokens.id_token as string, { nonce: request.nonce, accessToken: tokens.access_token });
    expectUserinfo(await userinfo(c, tokens.access_token), claims.sub as string);
  });

  it('oidcc-response-type-missing [form_post]', async () => {
    const request = authorizationRequest(c, { ...FORM_POST, response_type: null });
    const response = await openAuthorization(new Browser(), request);
    const callback = callbackOf(response);
    if (callback === null) {
      expect(response.status).toBe(400);
      expect(response.location).toBeNull();
    } else {
      expectFormPost(callback);
      expect(['invalid_request', 'unsupported_response_type']).toContain(expectAuthorizationError(callback, request));
    }
  });

  it('oidcc-prompt-none-not-logged-in [form_post]', async () => {
    const request = authorizationRequest(c, { ...FORM_POST, prompt: 'none', state: randomValue(128) });
    const callback = expectCallback(await openAuthorization(new Browser(), request));
    expectFormPost(callback);
    expect(USER_INTERFACE_ERRORS).toContain(expectAuthorizationError(callback, request));
  });

  /** The second authorization of a signed-in browser answers by form_post without a page: the same sub. */
  async function sameAuthTwice(second: (idToken: string) => Record<string, string>) {
    const browser = new Browser();
    const first = authorizationRequest(c, FORM_POST);
    const firstCallback = expectCallback(await logIn(t, browser, await openAuthorization(browser, first), uniqueEmail('form-post')));
    const firstTokens = expectTokens(await exchangeCode(c, expectCode(firstCallback, first)));
    const firstClaims = await validateIdToken(c, firstTokens.id_token, { nonce: first.nonce });
    const request = authorizationRequest(c, { ...FORM_POST, ...second(firstTokens.id_token) });
    const callback = expectCallback(await openAuthorization(browser, request));
    expectFormPost(callback);
    const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request)));
    const claims = await validateIdToken(c, tokens.id_token, { nonce: request.nonce });
    expect(claims.sub).toBe(firstClaims.sub);
    expect(claims.auth_time).toBe(firstClaims.auth_time);
  }

  it('oidcc-prompt-none-logged-in [form_post]', async () => {
    await sameAuthTwice(() => ({ prompt: 'none' }));
  });

  it('oidcc-id-token-hint [form_post]', async () => {
    await sameAuthTwice((idToken) => ({ prompt: 'none', id_token_hint: idToken }));
  });

  it('oidcc-ensure-registered-redirect-uri [form_post]', async () => {
    const unregistered = `${REDIRECT}/${randomValue()}`;
    const request = authorizationRequest(c, { ...FORM_POST, redirect_uri: unregistered });
    const response = await new Browser().get(request.url.href, BROWSER_ACCEPT);
    // An error page: no form posting anything to the unregistered address.
    expect(response.status).toBe(400);
    expect(response.location).toBeNull();
    expect(response.text).not.toContain(`action="${unregistered}"`);
    expect(response.text).not.toContain('<form method="post"');
  });
});
