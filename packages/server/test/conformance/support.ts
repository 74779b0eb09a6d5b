import { constants, createHash, createPublicKey, randomBytes, verify, type JsonWebKey } from 'node:crypto';
import * as client from 'openid-client';
import { expect } from 'vitest';
import { api, projectIssuerPath, type ApplicationKeys, type ApplicationType } from '@latchkey/domain';
import type { Db } from '../../src/db/db.ts';
import { startTestApp, type SignedIn, type TestApp } from '../support/app.ts';
import type { Browser, BrowserResponse } from '../support/browser.ts';
import { apiPath, createApp, createKeys, createProject, REDIRECT } from '../support/fixtures.ts';
import { declinePasskey, formAction, isPasskeyOffer, submitEmail } from '../support/sign-in.ts';

// The OpenID Foundation conformance suite's OP test plans (docs/conformance.md), as a relying party
// that behaves as the suite's does: a static client (client_secret_basic unless told), state and
// nonce in every authorization request, no PKCE unless the module sends it (a web app needs none by
// default), the ID token checked as the suite's ValidateIdToken and signature conditions check it.

/** Where the conformance client's post-logout redirect goes (the suite's `…/post_logout_redirect`). */
export const POST_LOGOUT = 'https://app.example.com/post_logout_redirect';

/** What a browser accepts when it navigates (oidc-provider answers an error as a page, not JSON). */
export const BROWSER_ACCEPT = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Errors that say the request needed the person (CheckErrorFromAuthorizationEndpointIsOneThatRequiredAUserInterface). */
export const USER_INTERFACE_ERRORS = ['login_required', 'interaction_required', 'consent_required', 'account_selection_required'];

/** A static client of a project's issuer, as the suite is configured with one. */
export interface StaticClient {
  projectId: string;
  appId: string;
  keys: ApplicationKeys;
  issuer: string;
  /** The discovery document as fetched. */
  metadata: Record<string, unknown>;
  /** openid-client for this client by discovery, authenticating with client_secret_basic. */
  config: client.Configuration;
}

export async function discoveryOf(issuer: string): Promise<Response> {
  return fetch(`${issuer}/.well-known/openid-configuration`);
}

/** openid-client configured for `keys` at `issuer`, by discovery. */
export function relyingParty(issuer: string, keys: ApplicationKeys, auth: 'basic' | 'post' = 'basic'): Promise<client.Configuration> {
  const method = auth === 'basic' ? client.ClientSecretBasic(keys.clientSecret) : client.ClientSecretPost(keys.clientSecret);
  return client.discovery(new URL(issuer), keys.clientId, keys.clientSecret, method, { execute: [client.allowInsecureRequests] });
}

/** A new application (a web app unless told) of `projectId` with REDIRECT (and POST_LOGOUT when asked) registered. */
export async function addClient(
  t: TestApp,
  admin: SignedIn,
  projectId: string,
  options: { name?: string; type?: ApplicationType; postLogout?: boolean } = {},
): Promise<StaticClient> {
  const appId = await createApp(admin, projectId, options.name ?? 'Conformance client', options.type ?? 'web');
  let keys = await createKeys(admin, appId, [REDIRECT]);
  if (options.postLogout) {
    const res = await admin.api.put<ApplicationKeys>(apiPath(api.updateAppKeys, { application: appId }), {
      redirectURI: [REDIRECT],
      postLogoutRedirectURI: [POST_LOGOUT],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    keys = { ...keys, ...res.body, clientSecret: keys.clientSecret };
  }
  const issuer = `${t.baseUrl}${projectIssuerPath(projectId)}`;
  const metadata = (await (await discoveryOf(issuer)).json()) as Record<string, unknown>;
  return { projectId, appId, keys, issuer, metadata, config: await relyingParty(issuer, keys) };
}

/** A new project with one static client. */
export async function staticClient(t: TestApp, admin: SignedIn, options: { postLogout?: boolean } = {}): Promise<StaticClient> {
  return addClient(t, admin, await createProject(admin), options);
}

/** A random value as the suite makes state and nonce (`length` characters of base64url). */
export function randomValue(length = 10): string {
  return randomBytes(length).toString('base64url').slice(0, length);
}

/** An authorization request as the suite builds it. */
export interface AuthorizationRequest {
  params: Record<string, string>;
  url: URL;
  state: string;
  nonce: string;
  /** The PKCE verifier, when the request carries a challenge. */
  verifier?: string;
}

/**
 * The suite's authorization request: response_type=code, client_id, redirect_uri, scope (openid
 * email), state and nonce; `extra` adds or replaces parameters (a value of null removes one).
 */
export function authorizationRequest(c: StaticClient, extra: Record<string, string | null> = {}): AuthorizationRequest {
  const state = randomValue();
  const nonce = randomValue();
  const params: Record<string, string> = {
    client_id: c.keys.clientId,
    redirect_uri: REDIRECT,
    scope: 'openid email',
    state,
    nonce,
    response_type: 'code',
  };
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) delete params[key];
    else params[key] = value;
  }
  const url = new URL(String(c.metadata.authorization_endpoint));
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { params, url, state: params.state ?? '', nonce: params.nonce ?? '' };
}

/** The same request with a PKCE S256 challenge (the suite's SetupPkceAndAddToAuthorizationRequest). */
async function withPkce(request: AuthorizationRequest): Promise<AuthorizationRequest> {
  const verifier = client.randomPKCECodeVerifier();
  const challenge = await client.calculatePKCECodeChallenge(verifier);
  const url = new URL(request.url);
  url.searchParams.set('code_challenge', challenge);
  url.searchParams.set('code_challenge_method', 'S256');
  return { ...request, url, verifier, params: { ...request.params, code_challenge: challenge, code_challenge_method: 'S256' } };
}

/** What the authorization endpoint answered the client: its parameters, and how they came (query or form_post). */
export interface Callback {
  mode: 'query' | 'form_post';
  params: URLSearchParams;
  /** The last response: the redirect to the client, or the form_post page. */
  response: BrowserResponse;
}

const toClient = (location: string) => location.startsWith(REDIRECT);

/** Follows redirects until the client's redirect URI, a form_post page to it, or another page. */
async function untilClient(browser: Browser, first: BrowserResponse): Promise<BrowserResponse> {
  return (await browser.follow(first, toClient)).at(-1) as BrowserResponse;
}

/** The callback a response carries to the client, or null (a page of the issuer). */
export function callbackOf(response: BrowserResponse): Callback | null {
  if (response.location && toClient(response.location)) {
    const url = new URL(response.location);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.hash).toBe('');
    return { mode: 'query', params: url.searchParams, response };
  }
  // oidc-provider's form_post page (answered 400 when it carries an error).
  if ((response.status === 200 || response.status === 400) && response.text.includes(`<form method="post" action="${REDIRECT}">`)) {
    const params = new URLSearchParams();
    for (const input of response.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) {
      params.set(decodeHtml(input[1] as string), decodeHtml(input[2] as string));
    }
    return { mode: 'form_post', params, response };
  }
  return null;
}

function decodeHtml(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&#x27;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The browser opens `request` (GET, or POST as a form: oidcc-ensure-post-request-succeeds) and follows it. */
export async function openAuthorization(browser: Browser, request: AuthorizationRequest, method: 'GET' | 'POST' = 'GET'): Promise<BrowserResponse> {
  if (method === 'GET') return untilClient(browser, await browser.get(request.url.href, BROWSER_ACCEPT));
  const endpoint = new URL(request.url);
  const form = Object.fromEntries(endpoint.searchParams);
  endpoint.search = '';
  return untilClient(browser, await browser.request(endpoint.href, { form, headers: BROWSER_ACCEPT }));
}

/** Waits until the clock's epoch second reaches `second`. */
export async function untilEpoch(second: number): Promise<void> {
  const wait = second * 1000 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 5));
}

/** Waits until the next epoch second (so a token issued now and one issued after differ in iat; the suite waits a second). */
export function nextSecond(): Promise<void> {
  return untilEpoch(Math.floor(Date.now() / 1000) + 1);
}

/** Is this the sign-in pages' first page (the identity asked for)? */
export const isLoginPage = (page: BrowserResponse): boolean => page.status === 200 && page.text.includes('name="email"');

/** The end user signs in on page 1 with an emailed code (declining the passkey offer); answers the response to the client. */
export async function logIn(t: TestApp, browser: Browser, page1: BrowserResponse, email: string): Promise<BrowserResponse> {
  expect(isLoginPage(page1), `${page1.status} ${page1.url}\n${page1.text}`).toBe(true);
  const codePage = await submitEmail(browser, page1, email);
  let last = await untilClient(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
  if (isPasskeyOffer(last)) last = await untilClient(browser, await declinePasskey(browser, last));
  return last;
}

/** An authorization that must end at the client: answers its callback. */
export function expectCallback(response: BrowserResponse): Callback {
  const callback = callbackOf(response);
  expect(callback, `${response.status} ${response.url} → ${response.location ?? ''}\n${response.text}`).not.toBeNull();
  return callback as Callback;
}

/** A whole authorization with a sign-in (the browser not signed in yet): answers the callback. */
export async function authorize(t: TestApp, browser: Browser, request: AuthorizationRequest, email: string): Promise<Callback> {
  return expectCallback(await logIn(t, browser, await openAuthorization(browser, request), email));
}

/**
 * The suite's checks of a successful authorization response (CheckMatchingCallbackParameters,
 * CheckIfAuthorizationEndpointError, CheckMatchingStateParameter, the code's length and entropy —
 * oidcc-server's EnsureMinimumAuthorizationCodeLength/Entropy): answers the code.
 */
export function expectCode(callback: Callback, request: AuthorizationRequest): string {
  expect(callback.params.get('error'), callback.params.toString()).toBeNull();
  expect(callback.params.get('state')).toBe(request.state);
  const code = callback.params.get('code') ?? '';
  expect(Buffer.byteLength(code) * 8).toBeGreaterThanOrEqual(128);
  expect(shannonEntropy(code)).toBeGreaterThan(96);
  return code;
}

/**
 * The suite's checks of an error answered to the client (performGenericAuthorizationEndpointErrorResponseValidation):
 * no code, the state returned unchanged, error and error_description of the allowed characters
 * (RFC 6749 §4.1.2.1). Answers the error.
 */
export function expectAuthorizationError(callback: Callback, request: AuthorizationRequest): string {
  expect(callback.params.get('code')).toBeNull();
  expect(callback.params.get('state')).toBe(request.state);
  const error = callback.params.get('error') ?? '';
  expect(error).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]+$/);
  const description = callback.params.get('error_description');
  if (description !== null) expect(description).toMatch(/^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/);
  return error;
}

/** Shannon entropy of a string in bits (the suite's AbstractEnsureMinimumEntropy). */
function shannonEntropy(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bitsPerChar = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bitsPerChar -= p * Math.log2(p);
  }
  return bitsPerChar * s.length;
}

/** A token endpoint answer as the suite reads it: status, headers and JSON body. */
export interface TokenResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Calls the token endpoint as the suite does (client_secret_basic, or client_secret_post). */
export async function tokenRequest(c: StaticClient, form: Record<string, string>, auth: 'basic' | 'post' = 'basic'): Promise<TokenResponse> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
  const body = new URLSearchParams(form);
  if (auth === 'basic') {
    const encode = (v: string) => encodeURIComponent(v);
    headers.authorization = `Basic ${Buffer.from(`${encode(c.keys.clientId)}:${encode(c.keys.clientSecret)}`).toString('base64')}`;
  } else {
    body.set('client_id', c.keys.clientId);
    body.set('client_secret', c.keys.clientSecret);
  }
  const res = await fetch(String(c.metadata.token_endpoint), { method: 'POST', headers, body });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The authorization code grant (CreateTokenEndpointRequestForAuthorizationCodeGrant). */
export function exchangeCode(c: StaticClient, code: string, options: { verifier?: string; auth?: 'basic' | 'post' } = {}): Promise<TokenResponse> {
  const form: Record<string, string> = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT };
  if (options.verifier) form.code_verifier = options.verifier;
  return tokenRequest(c, form, options.auth);
}

/** The refresh token grant (CreateRefreshTokenRequest; AddScopeToTokenEndpointRequest for the first client). */
export function refreshRequest(c: StaticClient, refreshToken: string, scope?: string): Promise<TokenResponse> {
  return tokenRequest(c, { grant_type: 'refresh_token', refresh_token: refreshToken, ...(scope ? { scope } : {}) });
}

const VSCHAR = /^[\x20-\x7E]+$/;
const NQSCHAR_NO_SPACE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The suite's checks of a successful token response (CheckIfTokenEndpointResponseError,
 * CheckForAccessTokenValue, CheckTokenTypeIsBearer, ValidateExpiresIn, the access token's entropy
 * and characters, CheckTokenEndpointHttpStatus200, CheckTokenEndpointReturnedJsonContentType,
 * CheckTokenEndpointCacheHeaders).
 */
export function expectTokens(response: TokenResponse): {
  access_token: string;
  id_token: string;
  refresh_token?: string;
  body: Record<string, unknown>;
} {
  const { status, headers, body } = response;
  expect(status, JSON.stringify(body)).toBe(200);
  expect(headers.get('content-type')).toMatch(/^application\/json/);
  expect(
    headers
      .get('cache-control')
      ?.split(',')
      .map((v) => v.trim()),
  ).toContain('no-store');
  expect(body.error).toBeUndefined();
  expect(body.access_token).toEqual(expect.any(String));
  expect(body.access_token as string).toMatch(VSCHAR);
  expect(shannonEntropy(body.access_token as string)).toBeGreaterThan(96);
  expect(String(body.token_type).toLowerCase()).toBe('bearer');
  expect(body.expires_in).toEqual(expect.any(Number));
  expect(body.expires_in as number).toBeGreaterThan(0);
  expect(body.id_token).toEqual(expect.any(String));
  if (body.refresh_token !== undefined) expect(body.refresh_token as string).toMatch(VSCHAR);
  return {
    access_token: body.access_token as string,
    id_token: body.id_token as string,
    ...(typeof body.refresh_token === 'string' ? { refresh_token: body.refresh_token } : {}),
    body,
  };
}

/**
 * The suite's checks of a refused token request (CheckTokenEndpointHttpStatus400,
 * CheckTokenEndpointReturnedJsonContentType, ValidateErrorFromTokenEndpointResponseError and its
 * description and URI): answers the error.
 */
export function expectTokenError(response: TokenResponse): string {
  expect(response.status, JSON.stringify(response.body)).toBe(400);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const { error, error_description: description, error_uri: uri } = response.body;
  expect(error).toEqual(expect.stringMatching(NQSCHAR_NO_SPACE));
  if (description !== undefined) {
    expect(description).toEqual(expect.stringMatching(/^[\x20-\x21\x23-\x5B\x5D-\x7E]*$/));
    expect(description as string).not.toMatch(/[\r\n\t]/);
  }
  if (uri !== undefined) expect(() => new URL(String(uri))).not.toThrow();
  return String(error);
}

export interface JwtParts {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

export function decodeJwt(jwt: string): JwtParts {
  const [header = '', payload = '', signature = ''] = jwt.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signingInput: `${header}.${payload}`,
    signature: Buffer.from(signature, 'base64url'),
  };
}

export type Jwk = JsonWebKey & { kid?: string; alg?: string; use?: string };

export async function fetchJwks(c: { metadata: Record<string, unknown> }): Promise<Jwk[]> {
  const res = await fetch(String(c.metadata.jwks_uri));
  expect(res.status).toBe(200);
  return ((await res.json()) as { keys: Jwk[] }).keys;
}

const HASHES: Record<string, string> = { RS256: 'sha256', PS256: 'sha256', ES256: 'sha256' };

/** Does `jwk` verify the JWS `parts` (ValidateIdTokenSignature)? */
export function signatureValid(parts: JwtParts, jwk: Jwk): boolean {
  const alg = String(parts.header.alg);
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const data = Buffer.from(parts.signingInput);
  if (alg === 'EdDSA') return verify(null, data, key, parts.signature);
  const hash = HASHES[alg];
  if (!hash) return false;
  if (alg === 'PS256') return verify(hash, data, { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, parts.signature);
  if (alg === 'ES256') return verify(hash, data, { key, dsaEncoding: 'ieee-p1363' }, parts.signature);
  return verify(hash, data, key, parts.signature);
}

const SKEW_SECONDS = 5 * 60;

/**
 * The suite's ID token checks (ValidateIdToken, ValidateIdTokenNonce, ValidateIdTokenSignature,
 * ValidateIdTokenSignatureUsingKid, CheckForSubjectInIdToken, and, for the token endpoint's,
 * ValidateAtHash when at_hash is present): answers the claims.
 */
export async function validateIdToken(
  c: StaticClient,
  idToken: string,
  expected: { nonce?: string | null; accessToken?: string } = {},
): Promise<Record<string, unknown>> {
  const parts = decodeJwt(idToken);
  const { claims } = parts;
  const now = Math.floor(Date.now() / 1000);
  expect(claims.iss).toBe(c.issuer);
  const aud = claims.aud;
  if (Array.isArray(aud)) expect(aud).toContain(c.keys.clientId);
  else expect(aud).toBe(c.keys.clientId);
  if (Array.isArray(aud) && aud.length > 1) expect(claims.azp).toBe(c.keys.clientId);
  expect(claims.exp).toEqual(expect.any(Number));
  expect(claims.exp as number).toBeGreaterThan(now - SKEW_SECONDS);
  expect(claims.iat).toEqual(expect.any(Number));
  expect(claims.iat as number).toBeLessThanOrEqual(now + SKEW_SECONDS);
  expect(claims.iat as number).toBeGreaterThanOrEqual(now - SKEW_SECONDS);
  if (claims.auth_time !== undefined) {
    expect(claims.auth_time as number).toBeLessThanOrEqual(now + SKEW_SECONDS);
    expect(claims.auth_time as number).toBeGreaterThan(now - 365 * 86400);
  }
  if (claims.acr !== undefined) expect(claims.acr).not.toBe('');
  if (expected.nonce === null) expect(claims.nonce).toBeUndefined();
  else if (expected.nonce !== undefined) expect(claims.nonce).toBe(expected.nonce);
  expect(claims.sub).toEqual(expect.any(String));
  expect((claims.sub as string).length).toBeGreaterThan(0);
  // Signed by a key of the JWKS named by its kid (OpenID Connect Core §10.1).
  expect(parts.header.alg).not.toBe('none');
  expect(parts.header.kid).toEqual(expect.any(String));
  const key = (await fetchJwks(c)).find((k) => k.kid === parts.header.kid);
  expect(key, `kid ${String(parts.header.kid)} in the JWKS`).toBeDefined();
  expect(signatureValid(parts, key as Jwk)).toBe(true);
  if (claims.at_hash !== undefined && expected.accessToken) expect(claims.at_hash).toBe(halfHash(expected.accessToken));
  return claims;
}

/** at_hash / c_hash of a value for RS256, PS256 and ES256 (OpenID Connect Core §3.1.3.6): the left half of its SHA-256. */
function halfHash(value: string): string {
  return createHash('sha256').update(value).digest().subarray(0, 16).toString('base64url');
}

/** Calls the userinfo endpoint (GET with the bearer header; POST with the header; POST with the token in the body). */
export async function userinfo(
  c: StaticClient,
  accessToken: string,
  how: 'get' | 'post-header' | 'post-body' = 'get',
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const endpoint = String(c.metadata.userinfo_endpoint);
  const res =
    how === 'get'
      ? await fetch(endpoint, { headers: { authorization: `Bearer ${accessToken}` } })
      : how === 'post-header'
        ? await fetch(endpoint, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } })
        : await fetch(endpoint, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ access_token: accessToken }),
          });
  const text = await res.text();
  // A refusal may have no body (its error is in WWW-Authenticate).
  const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  return { status: res.status, headers: res.headers, body };
}

/**
 * The suite's userinfo checks (EnsureUserInfoContainsSub, ValidateUserInfoStandardClaims for the
 * claims present, VerifyUserInfoAndIdTokenInTokenEndpointSameSub): answers the claims.
 */
export function expectUserinfo(response: { status: number; headers: Headers; body: Record<string, unknown> }, sub: string): Record<string, unknown> {
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const claims = response.body;
  expect(claims.sub).toBe(sub);
  const types: Record<string, string> = {
    email: 'string',
    email_verified: 'boolean',
    preferred_username: 'string',
    locale: 'string',
    name: 'string',
    updated_at: 'number',
  };
  for (const [claim, type] of Object.entries(types)) if (claim in claims) expect(typeof claims[claim], claim).toBe(type);
  return claims;
}

/** A sign-in from start to tokens: the request, the callback, the token response's tokens and the ID token's claims. */
export async function fullSignIn(
  t: TestApp,
  browser: Browser,
  c: StaticClient,
  email: string,
  extra: Record<string, string | null> = {},
  options: { pkce?: boolean } = {},
): Promise<{ request: AuthorizationRequest; tokens: ReturnType<typeof expectTokens>; claims: Record<string, unknown> }> {
  const plain = authorizationRequest(c, extra);
  const request = options.pkce ? await withPkce(plain) : plain;
  const callback = await authorize(t, browser, request, email);
  const tokens = expectTokens(await exchangeCode(c, expectCode(callback, request), request.verifier ? { verifier: request.verifier } : {}));
  const claims = await validateIdToken(c, tokens.id_token, { nonce: request.params.nonce ?? null, accessToken: tokens.access_token });
  return { request, tokens, claims };
}

/** A signed-in browser's next authorization, which must not show a page: answers the callback. */
export async function silentAuthorization(browser: Browser, request: AuthorizationRequest): Promise<Callback> {
  return expectCallback(await openAuthorization(browser, request));
}

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

/**
 * The suite's JWKS checks (FetchServerKeys, CheckServerKeysIsValid, ValidateServerJWKs,
 * CheckForKeyIdInServerJWKs, CheckDistinctKeyIdValueInServerJWKs,
 * EnsureServerJwksDoesNotContainPrivateOrSymmetricKeys): answers the keys.
 */
export function validateJwks(keys: Jwk[]): Jwk[] {
  expect(keys.length).toBeGreaterThan(0);
  for (const key of keys) {
    expect(['RSA', 'EC', 'OKP']).toContain(key.kty);
    for (const member of PRIVATE_MEMBERS) expect(key, `${String(key.kid)} has no ${member}`).not.toHaveProperty(member);
    if (key.use !== undefined) expect(['sig', 'enc']).toContain(key.use);
    expect(key.kid).toEqual(expect.any(String));
    for (const member of ['n', 'e', 'x', 'y'] as const) if (key[member] !== undefined) expect(key[member]).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => createPublicKey({ key, format: 'jwk' })).not.toThrow();
  }
  expect(new Set(keys.map((k) => k.kid)).size).toBe(keys.length);
  return keys;
}

/** CheckServerConfiguration with the JWKS fetched and checked, as every module's configure() does. */
export async function validateServerConfiguration(c: StaticClient): Promise<Jwk[]> {
  expect(c.metadata.issuer).toBe(c.issuer);
  for (const endpoint of ['authorization_endpoint', 'token_endpoint', 'jwks_uri']) expect(c.metadata[endpoint], endpoint).toEqual(expect.any(String));
  return validateJwks(await fetchJwks(c));
}

/** The https origin a deployment serves its issuers at, for the checks the loopback test app (http) cannot make. */
const DEPLOYED_PUBLIC_URL = 'https://login.example.test';

/**
 * A project's discovery document as a deployment with an https PUBLIC_URL serves it: another
 * instance on the same database (as instances behind a load balancer are), asked in-process.
 */
export async function httpsDiscovery(
  db: Db,
  projectId: string,
): Promise<{ issuer: string; response: { status: number; contentType: string; body: string } }> {
  const deployed = await startTestApp(db, { env: { PUBLIC_URL: DEPLOYED_PUBLIC_URL } });
  try {
    const path = `${projectIssuerPath(projectId)}/.well-known/openid-configuration`;
    const res = await deployed.app.inject({ method: 'GET', url: path });
    return {
      issuer: `${DEPLOYED_PUBLIC_URL}${projectIssuerPath(projectId)}`,
      response: { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body },
    };
  } finally {
    await deployed.close();
  }
}
