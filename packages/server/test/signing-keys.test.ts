import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { api, JWKS_CACHE_SECONDS, type Issuer, type SettingsHistory, type SigningKeys } from '@latchkey/domain';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, changeIssuer, closeProject } from './support/fixtures.ts';
import { OFFLINE, projectWithRelyingParty, signInForTokens, type RelyingParty } from './support/relying-party.ts';

// Issue 22 "Signing keys": rotate from the API (and the console); the previous key stays in the
// JWKS for the tokens' longest lifetime plus a discovery cache period, then leaves; an algorithm
// change publishes both algorithms for that overlap. openid-client verifies every ID token.
describeEachDatabase('signing key rotation at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
  });

  const keysOf = (projectId: string) => admin.api.get<SigningKeys>(apiPath(api.getSigningKeys, { project: projectId }));
  const rotate = (by: SignedIn, projectId: string) => by.api.post<SigningKeys>(apiPath(api.rotateSigningKey, { project: projectId }), {});
  const kidOf = (idToken: string) => (JSON.parse(Buffer.from(idToken.split('.')[0] as string, 'base64url').toString()) as { kid: string }).kid;
  const jwksOf = async (projectId: string) =>
    ((await (await fetch(`${t.baseUrl}/p/${projectId}/jwks`)).json()) as { keys: Array<{ kid: string; alg: string }> }).keys;
  /** openid-client discovering the issuer afresh (a relying party whose cache expired). */
  const rediscover = (p: RelyingParty) =>
    client.discovery(new URL(`${t.baseUrl}/p/${p.projectId}`), p.keys.clientId, p.keys.clientSecret, undefined, {
      execute: [client.allowInsecureRequests],
    });

  const setIssuer = (projectId: string, change: Partial<Issuer>) => changeIssuer(admin, projectId, change);

  it('rotating: the new key signs at once, the previous stays published for its grace and still verifies its tokens; the history has it', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const before = await signInForTokens(t, new Browser(), p, uniqueEmail('rotate'), OFFLINE);
    const [first] = (await keysOf(p.projectId)).body.keys;
    expect(first).toMatchObject({ alg: 'RS256', status: 'signing', retiresAt: null, kid: kidOf(before.id_token as string) });

    const rotated = await rotate(admin, p.projectId);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const [signing, retiring] = rotated.body.keys;
    expect(signing).toMatchObject({ alg: 'RS256', status: 'signing' });
    expect(signing?.kid).not.toBe(first?.kid);
    expect(retiring).toMatchObject({ kid: first?.kid, status: 'retiring' });
    // Grace: the longest token lifetime (the ID token's hour) plus a day of discovery caching.
    const grace = (Date.parse(retiring?.retiresAt ?? '') - Date.now()) / 1000;
    expect(grace).toBeGreaterThan(3600 + JWKS_CACHE_SECONDS - 60);
    expect(grace).toBeLessThanOrEqual(3600 + JWKS_CACHE_SECONDS);
    expect((await jwksOf(p.projectId)).map((k) => k.kid).sort()).toEqual([first?.kid, signing?.kid].sort());

    // A new sign-in and a refresh are signed by the new key, and verify by discovery.
    const config = await rediscover(p);
    const after = await signInForTokens(t, new Browser(), { ...p, config }, uniqueEmail('rotate'));
    expect(kidOf(after.id_token as string)).toBe(signing?.kid);
    const refreshed = await client.refreshTokenGrant(config, before.refresh_token as string);
    expect(kidOf(refreshed.id_token as string)).toBe(signing?.kid);

    const history = await admin.api.get<SettingsHistory>(`${apiPath(api.listSettingsHistory, { project: p.projectId })}?page=oidc`);
    expect(history.body.list[0]).toMatchObject({
      action: 'issuer.keys.rotate',
      changes: { signing_key: { before: first?.kid, after: signing?.kid } },
    });
  });

  it('a key whose grace has passed leaves the JWKS (at the next build of the issuer)', async () => {
    const p = await projectWithRelyingParty(t, admin);
    await keysOf(p.projectId);
    const [, old] = (await rotate(admin, p.projectId)).body.keys;
    await d.db.query(`UPDATE server_keys SET retire_at = now() - interval '1 second' WHERE name LIKE $1`, [`project:${p.projectId}:signing:RS256:%`]);
    await rotate(admin, p.projectId); // moves the version: the issuer is built again
    const published = (await jwksOf(p.projectId)).map((k) => k.kid);
    expect(published).toHaveLength(2);
    expect(published).not.toContain(old?.kid);
  });

  it('changing the algorithm signs with the new one at once; RS256 stays published, as OpenID Connect requires', async () => {
    const p = await projectWithRelyingParty(t, admin);
    await signInForTokens(t, new Browser(), p, uniqueEmail('alg'));
    await setIssuer(p.projectId, { id_token_signing_alg: 'ES256' });
    const config = await rediscover(p);
    const tokens = await signInForTokens(t, new Browser(), { ...p, config }, uniqueEmail('alg'));
    expect(JSON.parse(Buffer.from((tokens.id_token as string).split('.')[0] as string, 'base64url').toString())).toMatchObject({ alg: 'ES256' });
    expect((await jwksOf(p.projectId)).map((k) => k.alg).sort()).toEqual(['ES256', 'RS256']);
    const keys = (await keysOf(p.projectId)).body.keys;
    expect(keys.map((k) => [k.alg, k.status])).toEqual([
      ['ES256', 'signing'],
      ['RS256', 'published'],
    ]);
    expect(keys[1]?.retiresAt).toBeNull();
    expect(config.serverMetadata().id_token_signing_alg_values_supported).toEqual(['ES256', 'RS256']);
    // Another algorithm left (ES256 → PS256) retires after its overlap; RS256 stays.
    await setIssuer(p.projectId, { id_token_signing_alg: 'PS256' });
    const after = (await keysOf(p.projectId)).body.keys;
    expect(after.map((k) => [k.alg, k.status])).toEqual([
      ['PS256', 'signing'],
      ['ES256', 'retiring'],
      ['RS256', 'published'],
    ]);
    expect(after[1]?.retiresAt).toEqual(expect.any(String));
  });

  it('only the project admin may rotate (403 for a viewer, 404 for another project), never while the project is closed (409)', async () => {
    const p = await projectWithRelyingParty(t, admin);
    const viewer = await signedInAccount(t, d.db, [`cst:${p.projectId}:audit`]);
    expect((await rotate(viewer, p.projectId)).status).toBe(403);
    const stranger = await signedInAccount(t, d.db);
    expect((await rotate(stranger, p.projectId)).status).toBe(404);
    await closeProject(admin, p.projectId);
    expect((await rotate(admin, p.projectId)).status).toBe(409);
    expect((await keysOf(p.projectId)).body.keys).toHaveLength(1);
  });
});
