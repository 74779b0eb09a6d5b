import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, type ApplicationKeys } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp } from '../support/app.ts';
import { Browser } from '../support/browser.ts';
import { describeEachDatabase } from '../support/databases.ts';
import { apiPath, REDIRECT } from '../support/fixtures.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { logoutForm } from '../support/relying-party.ts';
import {
  authorizationRequest,
  BROWSER_ACCEPT,
  decodeJwt,
  expectAuthorizationError,
  expectCallback,
  fetchJwks,
  fullSignIn,
  httpsDiscovery,
  openAuthorization,
  POST_LOGOUT,
  randomValue,
  signatureValid,
  staticClient,
  USER_INTERFACE_ERRORS,
  type StaticClient,
} from './support.ts';

const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const SKEW_SECONDS = 5 * 60;

// The OpenID Foundation's Back-Channel Logout OP plan (oidcc-backchannel-rp-initiated-logout-certification-test-plan),
// one `it` per module. The plan's static client registers its backchannel_logout_uri (here a receiver
// the test runs on loopback, which the test app allows) and POST_LOGOUT as its post-logout URI.
describeEachDatabase('Back-Channel Logout OP (oidcc-backchannel-rp-initiated-logout-certification-test-plan)', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let c: StaticClient;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    const admin = await signedInAccount(t, d.db);
    c = await staticClient(t, admin, { postLogout: true });
    // CreateBackchannelLogoutUri: the redirect URI's base with /backchannel_logout.
    const res = await admin.api.put<ApplicationKeys>(apiPath(api.updateAppKeys, { application: c.appId }), {
      redirectURI: [REDIRECT],
      backchannelLogoutURI: `${receiver.url}/backchannel_logout`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
  afterAll(() => receiver.close());

  it('oidcc-backchannel-logout-discovery-endpoint-verification', async () => {
    // CheckDiscEndpointBackchannelLogoutSupported, CheckDiscEndpointBackchannelLogoutSessionSupported,
    // CheckDiscEndSessionEndpoint…
    expect(c.metadata.backchannel_logout_supported).toBe(true);
    expect(c.metadata.backchannel_logout_session_supported).toBe(true);
    expect(c.metadata.end_session_endpoint).toBe(`${c.issuer}/session/end`);
    // …and CheckDiscEndpointAllEndpointsAreHttps, with an https PUBLIC_URL as deployed.
    const deployed = await httpsDiscovery(d.db, c.projectId);
    const doc = JSON.parse(deployed.response.body) as Record<string, unknown>;
    for (const key of Object.keys(doc).filter((k) => k.endsWith('_endpoint'))) expect(new URL(String(doc[key])).protocol, key).toBe('https:');
  });

  it('oidcc-backchannel-rp-initiated-logout', async () => {
    const browser = new Browser();
    const { tokens, claims } = await fullSignIn(t, browser, c, uniqueEmail('bcl'), { state: randomValue(128) });
    // The ID token names its session: certification asks for sid (backchannel_logout_session_required).
    expect(claims.sid).toEqual(expect.any(String));

    const before = receiver.received.length;
    const state = randomValue(128);
    const url = new URL(String(c.metadata.end_session_endpoint));
    for (const [key, value] of Object.entries({ id_token_hint: tokens.id_token, post_logout_redirect_uri: POST_LOGOUT, state })) {
      url.searchParams.set(key, value);
    }
    const page = await browser.get(url.href, BROWSER_ACCEPT);
    const { action, xsrf } = logoutForm(page);
    const answered = await browser.request(action, { form: { xsrf, logout: 'yes' }, headers: BROWSER_ACCEPT });
    // CheckPostLogoutState; CheckForUnexpectedParametersInPostLogoutRedirect.
    const back = new URL(answered.location as string);
    expect(`${back.origin}${back.pathname}`).toBe(POST_LOGOUT);
    expect([...back.searchParams]).toEqual([['state', state]]);

    // The back-channel request: ExtractLogoutTokenFromBackchannelLogoutRequest,
    // CheckForUnexpectedParametersInBackchannelLogoutRequest (logout_token alone).
    const request = (await receiver.until(before + 1)).at(-1);
    expect(request?.path).toBe('/backchannel_logout');
    expect(request?.method).toBe('POST');
    const form = new URLSearchParams(request?.body);
    expect([...form.keys()]).toEqual(['logout_token']);
    const parts = decodeJwt(form.get('logout_token') ?? '');

    // ValidateLogoutTokenSignature: a key of the JWKS, named by its kid.
    const key = (await fetchJwks(c)).find((k) => k.kid === parts.header.kid);
    expect(key).toBeDefined();
    expect(signatureValid(parts, key as NonNullable<typeof key>)).toBe(true);
    expect(parts.header.typ).toBe('logout+jwt');

    // ValidateLogoutTokenClaims: iss, aud, iat, jti, events (exactly the one event, an empty object).
    const lt = parts.claims;
    const now = Math.floor(Date.now() / 1000);
    expect(lt.iss).toBe(c.issuer);
    expect(Array.isArray(lt.aud) ? lt.aud : [lt.aud]).toContain(c.keys.clientId);
    expect(lt.iat as number).toBeLessThanOrEqual(now + SKEW_SECONDS);
    expect(lt.jti).toEqual(expect.any(String));
    expect(lt.events).toEqual({ [LOGOUT_EVENT]: {} });
    // CheckIdTokenSubMatchesLogoutToken, CheckIdTokenSidMatchesLogoutToken, CheckLogoutTokenHasSubOrSid, CheckLogoutTokenNoNonce.
    expect(lt.sub).toBe(claims.sub);
    expect(lt.sid).toBe(claims.sid);
    expect(lt.nonce).toBeUndefined();

    // The prompt=none authorization after the logout fails: the person is signed out.
    const again = authorizationRequest(c, { prompt: 'none', state: randomValue(128) });
    const callback = expectCallback(await openAuthorization(browser, again));
    expect(USER_INTERFACE_ERRORS).toContain(expectAuthorizationError(callback, again));
  });
});
