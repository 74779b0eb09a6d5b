import { describe, expect, it } from 'vitest';
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

  describe('unauthenticated requests store little, and boundedly (issue 22)', () => {
    const interactionRows = async (projectId: string) => {
      const { rows } = await t.db.query<{ n: number; largest: number | null }>(
        `SELECT count(*)::int AS n, max(octet_length(payload))::int AS largest FROM oidc_payloads WHERE issuer = $1 AND kind = 'Interaction'`,
        [projectId],
      );
      return rows[0] as { n: number; largest: number | null };
    };
    const authorization = (clientId: string, extra: Record<string, string> = {}) =>
      new URLSearchParams({
        client_id: clientId,
        response_type: 'code',
        scope: 'openid email',
        redirect_uri: REDIRECT,
        state: 's'.repeat(64),
        nonce: 'n'.repeat(64),
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        ...extra,
      });

    it('an authorization request stores one interaction of a few kilobytes; a query over 4 KB is refused with a page and stores nothing', async () => {
      const { projectId, keys } = await projectWithClient();
      const first = await app.app.inject({
        method: 'GET',
        url: `/p/${projectId}/auth?${authorization(keys.clientId)}`,
        remoteAddress: '203.0.113.7',
      });
      expect(first.statusCode).toBe(303);
      const stored = await interactionRows(projectId);
      expect(stored.n).toBe(1);
      // The figure: a typical request's interaction, sealed.
      expect(stored.largest).toBeLessThan(4096);

      const huge = await app.app.inject({
        method: 'GET',
        url: `/p/${projectId}/auth?${authorization(keys.clientId, { state: 'x'.repeat(5000) })}`,
        remoteAddress: '203.0.113.7',
      });
      expect(huge.statusCode).toBe(400);
      expect(huge.headers.location).toBeUndefined();
      expect(huge.body).toContain('too large');
      // The router's other spellings of the path, and a body without its length, are measured too.
      for (const path of [`/p/${projectId}/AUTH`, `/p/${projectId}/auth/`, '/idp/AUTH', '/idp/auth/']) {
        const other = await app.app.inject({ method: 'GET', url: `${path}?${authorization(keys.clientId, { state: 'x'.repeat(5000) })}` });
        expect(other.statusCode, path).toBeGreaterThanOrEqual(400);
        expect(other.statusCode, path).toBeLessThan(500);
        expect(other.headers.location, path).toBeUndefined();
      }
      expect((await interactionRows(projectId)).n).toBe(1);
    });

    it('one client address starts at most 120 sign-ins at an issuer in 10 minutes; then it is told to try later and nothing more is stored; another address goes on', async () => {
      const { projectId, keys } = await projectWithClient();
      const from = (address: string) =>
        app.app.inject({ method: 'GET', url: `/p/${projectId}/auth?${authorization(keys.clientId)}`, remoteAddress: address });
      for (let i = 0; i < 120; i += 1) expect((await from('198.51.100.9')).statusCode).toBe(303);
      const refused = await from('198.51.100.9');
      expect(refused.statusCode).toBe(303);
      const back = new URL(refused.headers.location as string);
      expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
      expect(back.searchParams.get('error')).toBe('temporarily_unavailable');
      expect((await interactionRows(projectId)).n).toBe(120);
      expect(new URL((await from('198.51.100.10')).headers.location as string, 'http://x').pathname).toMatch(/\/interaction\//);
    });
  });
});
