import * as client from 'openid-client';
import { beforeAll, expect, it, vi } from 'vitest';
import type { Issuer } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { changeIssuer, closeProject, createApp, createKeys, REDIRECT, setEnabled } from './support/fixtures.ts';
import { OFFLINE, projectWithRelyingParty, refusal, signInForTokens, type RelyingParty } from './support/relying-party.ts';

// Issue 22 "Tokens": refresh tokens for offline_access, rotated at every use, a reused one revoking
// its grant (RFC 9700 §4.14.2); lifetimes from the project's OpenID Connect settings; revocation
// (RFC 7009) and introspection (RFC 7662); each refresh an event. openid-client is the relying party.
describeEachDatabase('refresh tokens, revocation and introspection at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  const setIssuer = (projectId: string, change: Partial<Issuer>) => changeIssuer(admin, projectId, change);

  const offlineSignIn = (p: RelyingParty, email = uniqueEmail('offline')) => signInForTokens(t, new Browser(), p, email, OFFLINE);

  async function eventsOf(projectId: string, action: string) {
    const { rows } = await d.db.query<{ event_status: string; user_id: string | null; details: Record<string, unknown> }>(
      `SELECT event_status, user_id, details FROM audit_events WHERE project_id = $1 AND details->>'action' = $2 ORDER BY id`,
      [projectId, action],
    );
    return rows;
  }

  async function idTokensCounted(projectId: string): Promise<number> {
    const { rows } = await d.db.query<{ count: string }>(
      `SELECT coalesce(sum(count), 0) AS count FROM usage_daily WHERE project_id = $1 AND key = 'jwt'`,
      [projectId],
    );
    return Number(rows[0]?.count);
  }

  it('discovery states the refresh_token grant, offline_access, revocation and introspection', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const metadata = p.config.serverMetadata();
    expect(metadata.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'offline_access']));
    expect(metadata.revocation_endpoint).toBe(`${t.baseUrl}/p/${p.projectId}/token/revocation`);
    expect(metadata.introspection_endpoint).toBe(`${t.baseUrl}/p/${p.projectId}/token/introspection`);
  });

  it('offline_access gives a refresh token; each refresh rotates it and answers a new ID token for the same user, an event counted as an ID token', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const email = uniqueEmail('offline');
    const first = await offlineSignIn(p, email);
    expect(first.refresh_token).toEqual(expect.any(String));
    expect(first.scope?.split(' ')).toContain('offline_access');
    const sub = first.claims()?.sub;
    const counted = await idTokensCounted(p.projectId);

    const second = await client.refreshTokenGrant(p.config, first.refresh_token as string);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.claims()?.sub).toBe(sub);
    expect((await client.fetchUserInfo(p.config, second.access_token, sub as string)).email).toBe(email);
    const third = await client.refreshTokenGrant(p.config, second.refresh_token as string);
    expect(third.claims()?.sub).toBe(sub);

    expect(await eventsOf(p.projectId, 'token.refreshed')).toEqual([
      // The person by id (docs/decisions/0046).
      expect.objectContaining({ event_status: 'success', user_id: sub }),
      expect.objectContaining({ event_status: 'success', user_id: sub }),
    ]);
    expect(await idTokensCounted(p.projectId)).toBe(counted + 2);
  });

  it('an answered refresh is written by the statement that stores its access token: no statement of its own (issue 38)', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const first = await offlineSignIn(p);
    const query = vi.spyOn(d.db, 'query');
    const second = await client.refreshTokenGrant(p.config, first.refresh_token as string);
    const statements = query.mock.calls.map(([sql, params]) => ({ sql, params: params ?? [] }));
    query.mockRestore();
    expect(second.claims()?.sub).toEqual(expect.any(String));
    const eventWrites = statements.filter((s) => s.sql.includes('INSERT INTO audit_events'));
    expect(eventWrites).toHaveLength(1);
    expect(eventWrites[0]?.sql).toContain('INSERT INTO oidc_payloads');
    expect(eventWrites[0]?.params).toContain('AccessToken');
    expect(await eventsOf(p.projectId, 'token.refreshed')).toEqual([
      expect.objectContaining({ event_status: 'success', user_id: second.claims()?.sub }),
    ]);
  });

  it('a rotated refresh token presented again is refused and revokes its whole grant: the newest refresh and access tokens stop working too', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const first = await offlineSignIn(p);
    const second = await client.refreshTokenGrant(p.config, first.refresh_token as string);
    const sub = second.claims()?.sub as string;

    expect(await refusal(client.refreshTokenGrant(p.config, first.refresh_token as string))).toBe('invalid_grant');
    expect(await refusal(client.refreshTokenGrant(p.config, second.refresh_token as string))).toBe('invalid_grant');
    expect(await refusal(client.fetchUserInfo(p.config, second.access_token, sub))).toBe('invalid_token');
    const refused = await eventsOf(p.projectId, 'token.refreshed');
    expect(refused.slice(1)).toEqual([
      expect.objectContaining({ event_status: 'failed', details: expect.objectContaining({ reason: 'refresh token already used' }) }),
      expect.objectContaining({ event_status: 'failed' }),
    ]);
  });

  it('a grant lives as long as its refresh tokens can with offline_access, a session (12 h) without', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const lifetimes = async () => {
      const { rows } = await d.db.query<{ hours: number }>(
        `SELECT round(extract(epoch FROM expires_at - now()) / 3600)::int AS hours FROM oidc_payloads WHERE issuer = $1 AND kind = 'Grant' ORDER BY expires_at`,
        [p.projectId],
      );
      return rows.map((r) => r.hours);
    };
    await signInForTokens(t, new Browser(), p, uniqueEmail('online'));
    await offlineSignIn(p);
    expect(await lifetimes()).toEqual([12, 90 * 24]);
  });

  it('without offline_access a web app gets no refresh token; offline_access without prompt=consent is dropped (OpenID Connect Core §11)', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const plain = await signInForTokens(t, new Browser(), p, uniqueEmail('online'));
    expect(plain.refresh_token).toBeUndefined();
    const noConsent = await signInForTokens(t, new Browser(), p, uniqueEmail('online'), { scope: OFFLINE.scope });
    expect(noConsent.refresh_token).toBeUndefined();
    expect(noConsent.scope?.split(' ')).not.toContain('offline_access');
  });

  it('the lifetimes come from the OpenID Connect settings, at once: access token, ID token, and a refresh token cut to its absolute lifetime', async () => {
    const p = await projectWithRelyingParty(t, admin);
    await setIssuer(p.projectId, {
      access_token_ttl: 300,
      id_token_ttl: 900,
      refresh_token_idle_ttl: 3 * 86400,
      refresh_token_absolute_ttl: 2 * 86400,
    });
    const tokens = await offlineSignIn(p);
    expect(tokens.expires_in).toBe(300);
    const claims = tokens.claims() as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(900);
    const refresh = await client.tokenIntrospection(p.config, tokens.refresh_token as string);
    expect(refresh).toMatchObject({ active: true, client_id: p.keys.clientId });
    expect((refresh.exp as number) - (refresh.iat as number)).toBe(2 * 86400);

    // Idle shorter than absolute: each rotation lives the idle time.
    await setIssuer(p.projectId, { refresh_token_idle_ttl: 86400, refresh_token_absolute_ttl: 30 * 86400 });
    const rotated = await client.refreshTokenGrant(p.config, tokens.refresh_token as string);
    const next = await client.tokenIntrospection(p.config, rotated.refresh_token as string);
    expect((next.exp as number) - (next.iat as number)).toBe(86400);
  });

  it('revoking the refresh token (RFC 7009) ends the grant: refresh and the access token refused; introspection says inactive', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const tokens = await offlineSignIn(p);
    const sub = tokens.claims()?.sub as string;
    expect(await client.tokenIntrospection(p.config, tokens.access_token)).toMatchObject({ active: true, sub, client_id: p.keys.clientId });

    await client.tokenRevocation(p.config, tokens.refresh_token as string);
    expect(await refusal(client.refreshTokenGrant(p.config, tokens.refresh_token as string))).toBe('invalid_grant');
    expect(await refusal(client.fetchUserInfo(p.config, tokens.access_token, sub))).toBe('invalid_token');
    expect(await client.tokenIntrospection(p.config, tokens.access_token)).toEqual({ active: false });
    expect(await client.tokenIntrospection(p.config, tokens.refresh_token as string)).toEqual({ active: false });
  });

  it("another application of the project cannot revoke a client's tokens; a public client may not introspect", async () => {
    const p = await projectWithRelyingParty(t, admin);
    const tokens = await offlineSignIn(p);
    const otherKeys = await createKeys(admin, await createApp(admin, p.projectId, 'Other app'), [REDIRECT]);
    const issuer = new URL(`${t.baseUrl}/p/${p.projectId}`);
    const other = await client.discovery(issuer, otherKeys.clientId, otherKeys.clientSecret, undefined, { execute: [client.allowInsecureRequests] });
    // RFC 7009 §2.2: the answer is the same (200) whether or not anything was revoked.
    await client.tokenRevocation(other, tokens.refresh_token as string);
    expect((await client.refreshTokenGrant(p.config, tokens.refresh_token as string)).access_token).toEqual(expect.any(String));

    await setIssuer(p.projectId, { allow_pkce_only_token_exchange: true });
    const spaKeys = await createKeys(admin, await createApp(admin, p.projectId, 'Single-page app', 'spa'), [REDIRECT]);
    const publicClient = await client.discovery(issuer, spaKeys.clientId, undefined, client.None(), { execute: [client.allowInsecureRequests] });
    // RFC 7662 §2.2: a caller not allowed to know learns nothing but `active: false` — a public
    // client, or a single-page app presenting its secret.
    expect(await client.tokenIntrospection(publicClient, tokens.access_token)).toEqual({ active: false });
    const spaWithSecret = await client.discovery(issuer, spaKeys.clientId, spaKeys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    expect(await client.tokenIntrospection(spaWithSecret, tokens.access_token)).toEqual({ active: false });
    expect(await client.tokenIntrospection(p.config, tokens.access_token)).toMatchObject({ active: true });
  });

  it('disabling the application or closing the project stops its refresh tokens at once', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const tokens = await offlineSignIn(p);
    const resourceServer = await createKeys(admin, await createApp(admin, p.projectId, 'API'), [REDIRECT]);
    const issuer = new URL(`${t.baseUrl}/p/${p.projectId}`);
    const api = await client.discovery(issuer, resourceServer.clientId, resourceServer.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });
    await setEnabled(admin, p.appId, false);
    expect(await refusal(client.refreshTokenGrant(p.config, tokens.refresh_token as string))).toBe('invalid_client');
    // Another web app asking about the disabled one's token learns it is inactive (not a 500).
    expect(await client.tokenIntrospection(api, tokens.access_token)).toEqual({ active: false });
    await setEnabled(admin, p.appId, true);
    const again = await client.refreshTokenGrant(p.config, tokens.refresh_token as string);
    await closeProject(admin, p.projectId);
    expect(await refusal(client.refreshTokenGrant(p.config, again.refresh_token as string))).toBe('invalid_client');
  });
});
