import { expect, it } from 'vitest';
import { errors } from 'oidc-provider';
import { dbAdapterFactory, type PayloadScope } from '../src/oidc/payloads.repository.ts';
import { signedInAccount, useTestApp } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { createApp, createKeys, createProject, REDIRECT, setEnabled } from './support/fixtures.ts';

/** Review findings on issue 8's first slice: each was a way around the issuer's rules. */
describeWithDatabase("a project's issuer refuses what it must", (t) => {
  const app = useTestApp(t);

  async function projectWithClient() {
    const admin = await signedInAccount(app, t.db);
    const projectId = await createProject(admin);
    const appId = await createApp(admin, projectId);
    const keys = await createKeys(admin, appId);
    return { projectId, keys, admin, appId };
  }

  it('lets an authorization code be consumed once: the second consumer is refused and the grant ends (RFC 6749 §4.1.2)', async () => {
    const { projectId } = await projectWithClient();
    const scope: PayloadScope = { issuer: projectId };
    const codes = dbAdapterFactory(t.db, app.services.secretBox, scope)('AuthorizationCode');
    const tokens = dbAdapterFactory(t.db, app.services.secretBox, scope)('AccessToken');
    await codes.upsert('code-1', { grantId: 'grant-1', kind: 'AuthorizationCode' }, 60);
    await tokens.upsert('token-1', { grantId: 'grant-1', kind: 'AccessToken' }, 60);
    // Two token requests that both read the code before either marked it used (two instances):
    expect((await codes.find('code-1'))?.consumed).toBeUndefined();
    await codes.consume('code-1');
    await expect(codes.consume('code-1')).rejects.toBeInstanceOf(errors.InvalidGrant);
    expect(await tokens.find('token-1')).toBeUndefined();
    expect(await codes.find('code-1')).toBeUndefined();
  });

  it('answers a token request with a NUL byte in client_id with a 4xx, never a 500', async () => {
    const { projectId } = await projectWithClient();
    for (const clientId of ['%00', 'a%00b', '%ED%A0%80']) {
      const res = await app.app.inject({
        method: 'POST',
        url: `/p/${projectId}/token`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `grant_type=authorization_code&code=x&client_id=${clientId}&client_secret=y&code_verifier=${'v'.repeat(43)}`,
      });
      expect(res.statusCode, `${clientId}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('requires redirect_uri even when the application registered only one (OpenID Connect Core §3.1.2.1), and never redirects without it', async () => {
    const { projectId, keys } = await projectWithClient();
    const query = new URLSearchParams({
      client_id: keys.clientId,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
    const res = await app.app.inject({ method: 'GET', url: `/p/${projectId}/auth?${query}` });
    expect(res.statusCode).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(String(res.headers.location ?? '')).not.toContain(REDIRECT);
  });

  it('offers no pushed authorization requests (they would pass the PKCE policy by)', async () => {
    const { projectId } = await projectWithClient();
    const discovery = await app.app.inject({ method: 'GET', url: `/p/${projectId}/.well-known/openid-configuration` });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json<Record<string, unknown>>().pushed_authorization_request_endpoint).toBeUndefined();
  });

  function authorizationQuery(clientId: string, redirectUri = REDIRECT): URLSearchParams {
    return new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    });
  }

  it.each(['/AUTH', '/auth/', '/Auth'])('refuses a disabled application at %s as at /auth: the refusal cannot be routed around', async (path) => {
    const { projectId, keys, admin, appId } = await projectWithClient();
    await setEnabled(admin, appId, false);
    const res = await app.app.inject({ method: 'GET', url: `/p/${projectId}${path}?${authorizationQuery(keys.clientId)}` });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('disabled');
    expect(res.headers.location).toBeUndefined();
  });

  it('reads an authorization request POSTed as a form (OpenID Connect Core §3.1.2.1) through the same checks as a GET', async () => {
    const { projectId, keys, admin, appId } = await projectWithClient();
    const post = (query: URLSearchParams) =>
      app.app.inject({
        method: 'POST',
        url: `/p/${projectId}/auth`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: query.toString(),
      });
    // A valid request goes on to the sign-in page, as a GET would.
    const ok = await post(authorizationQuery(keys.clientId));
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toContain(`/p/${projectId}/interaction/`);
    // An unregistered redirect URI is the error page, never a redirect there.
    const wrong = await post(authorizationQuery(keys.clientId, 'https://evil.example/cb'));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('INVALID_REQUEST_PARAMETERS');
    // A disabled application is refused with its page.
    await setEnabled(admin, appId, false);
    const refused = await post(authorizationQuery(keys.clientId));
    expect(refused.statusCode).toBe(403);
  });

  it('answers a JSON body on the sign-in pages with 415, not a 500 (they take forms only)', async () => {
    const { projectId } = await projectWithClient();
    const res = await app.app.inject({
      method: 'POST',
      url: `/p/${projectId}/interaction/abc/email`,
      headers: { 'content-type': 'application/json' },
      payload: '{"email":1}',
    });
    expect(res.statusCode).toBe(415);
  });
});
