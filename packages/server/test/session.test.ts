import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SESSION_COOKIE } from '@latchkey/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/db.ts';
import { anonymous, ApiClient, signedInAccount, startTestApp, storedSessionRef, type TestApp, useTestApp } from './support/app.ts';
import { createTestDatabase, describeWithDatabase } from './support/databases.ts';
import { HOUR, MINUTE } from './support/fakes.ts';

describeWithDatabase('console session', (t) => {
  const app = useTestApp(t);

  async function sessionRows(sessionId: string): Promise<number> {
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM sessions WHERE id_hash = $1', [
      storedSessionRef(app, sessionId),
    ]);
    return rows[0]?.n ?? 0;
  }

  async function projectCount(): Promise<number> {
    const { rows } = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM projects');
    return rows[0]?.n ?? 0;
  }

  it('answers 401 unauthorized without a session, and with an unknown one', async () => {
    const res = await anonymous(app).get('/api/account');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'unauthorized', message: 'Sign in to continue' });
    const unknown = await app.app.inject({ method: 'GET', url: '/api/account', headers: { cookie: `${SESSION_COOKIE}=nope` } });
    expect(unknown.statusCode).toBe(401);
  });

  it('answers the signed-in account; the database keeps only a keyed hash of the cookie', async () => {
    const me = await signedInAccount(app, t.db, ['glb::usage']);
    const res = await me.api.get('/api/account');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: me.account.id, email: me.account.email, permissions: ['glb::usage'], language: null });
    const { rows } = await t.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions WHERE account_id = $1', [me.account.id]);
    expect(rows).toEqual([{ id_hash: storedSessionRef(app, me.session.sessionId) }]);
    expect(rows[0]?.id_hash).not.toBe(createHash('sha256').update(me.session.sessionId).digest('hex'));
  });

  it('requires X-XSRF-TOKEN equal to the session token on unsafe calls; nothing changes without it', async () => {
    const me = await signedInAccount(app, t.db);
    const before = await projectCount();
    const body = { name: 'XSRF test', pinLength: 4, email: me.account.email };

    const missing = await me.api.post('/api/projects', body, { xsrf: false });
    expect(missing.status).toBe(403);
    expect(missing.body).toMatchObject({ error: 'xsrf_failed' });
    const wrong = await me.api.post('/api/projects', body, { xsrf: 'not-the-token' });
    expect(wrong.status).toBe(403);
    expect(await projectCount()).toBe(before);

    const ok = await me.api.post('/api/projects', body);
    expect(ok.status).toBe(201);
    expect(await projectCount()).toBe(before + 1);
  });

  it('remembers the console language an account chose, for that account only (issue 13)', async () => {
    const me = await signedInAccount(app, t.db);
    const other = await signedInAccount(app, t.db);
    const chosen = await me.api.put('/api/account/language', { language: 'ro' });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ id: me.account.id, language: 'ro' });
    expect((await me.api.get('/api/account')).body).toMatchObject({ language: 'ro' });
    // A new session of the same account (another browser) finds it too; another account does not.
    const again = new ApiClient(app.app, await app.services.sessions.createSession(me.account.id, null));
    expect((await again.get('/api/account')).body).toMatchObject({ language: 'ro' });
    expect((await other.api.get('/api/account')).body).toMatchObject({ language: null });
    // null goes back to the browser's language.
    expect((await me.api.put('/api/account/language', { language: null })).body).toMatchObject({ language: null });
    expect((await me.api.get('/api/account')).body).toMatchObject({ language: null });
  });

  it('refuses a language it does not speak, a missing one, or no XSRF token, and changes nothing', async () => {
    const me = await signedInAccount(app, t.db);
    await me.api.put('/api/account/language', { language: 'fr' });
    for (const body of [{ language: 'de' }, { language: 'FR' }, { language: 7 }, {}, { language: 'fr'.repeat(5000) }]) {
      const res = await me.api.put('/api/account/language', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'validation_failed' });
    }
    expect((await me.api.put('/api/account/language', { language: 'en' }, { xsrf: false })).status).toBe(403);
    expect((await anonymous(app).put('/api/account/language', { language: 'en' })).status).toBe(401);
    expect((await me.api.get('/api/account')).body).toMatchObject({ language: 'fr' });
  });

  it('does not need the XSRF header on safe methods', async () => {
    const me = await signedInAccount(app, t.db);
    expect((await me.api.get('/api/account')).status).toBe(200);
  });

  it('expires after 2 hours idle and deletes the row', async () => {
    const me = await signedInAccount(app, t.db);
    app.clock.advance(2 * HOUR - MINUTE);
    expect((await me.api.get('/api/account')).status).toBe(200);
    // The call above counts as activity: another almost-2-hours is fine.
    app.clock.advance(2 * HOUR - MINUTE);
    expect((await me.api.get('/api/account')).status).toBe(200);
    app.clock.advance(2 * HOUR);
    const expired = await me.api.get('/api/account');
    expect(expired.status).toBe(401);
    expect(String(expired.headers['set-cookie'])).toContain(`${SESSION_COOKIE}=;`);
    expect(await sessionRows(me.session.sessionId)).toBe(0);
  });

  it('expires 12 hours after sign-in however active', async () => {
    const me = await signedInAccount(app, t.db);
    for (let i = 0; i < 11; i++) {
      app.clock.advance(HOUR);
      expect((await me.api.get('/api/account')).status).toBe(200);
    }
    app.clock.advance(HOUR);
    expect((await me.api.get('/api/account')).status).toBe(401);
    expect(await sessionRows(me.session.sessionId)).toBe(0);
  });

  it('ends the session on logout (which works without one too) and clears the cookies', async () => {
    const me = await signedInAccount(app, t.db);
    const res = await me.api.get<{ redirectUrl: string }>('/api/logout');
    expect(res.status).toBe(200);
    expect(res.body.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:8080\//);
    const cookies = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]);
    expect(cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=;`))).toBe(true);
    expect(cookies.some((c) => c.startsWith('XSRF-TOKEN=;'))).toBe(true);
    expect((await me.api.get('/api/account')).status).toBe(401);
    expect(await sessionRows(me.session.sessionId)).toBe(0);

    const again = await anonymous(app).get('/api/logout');
    expect(again.status).toBe(200);
  });

  it('sets the session cookies httpOnly and SameSite=Lax; XSRF-TOKEN readable by script', async () => {
    const res = await app.app.inject({ method: 'GET', url: '/api/authurl?redirectURL=' + encodeURIComponent('http://127.0.0.1:8080/login') });
    expect(res.statusCode).toBe(200);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/^lk_login=[A-Za-z0-9._-]+; Max-Age=900; Path=\/api; HttpOnly; SameSite=Lax$/);
  });

  it('sweeps expired sessions', async () => {
    const me = await signedInAccount(app, t.db);
    app.clock.advance(13 * HOUR);
    await app.services.sessions.purgeExpired();
    await app.services.loginCodes?.purgeExpired();
    expect(await sessionRows(me.session.sessionId)).toBe(0);
  });

  it('answers the public console settings', async () => {
    const res = await anonymous(app).get('/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ docsUrl: app.config.docsUrl, supportUrl: app.config.supportUrl, registration: 'open' });
  });
});

describe('HTTP surface', () => {
  let app: TestApp;
  let dist: string;
  let database: { db: Db; drop(): Promise<void> };
  beforeAll(async () => {
    database = await createTestDatabase('pglite');
    dist = mkdtempSync(join(tmpdir(), 'latchkey-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Latchkey console</title>');
    writeFileSync(join(dist, 'assets', 'app-abc123.js'), 'console.log(1)\n//# sourceMappingURL=app-abc123.js.map');
    // A development build leaves maps beside the bundle; the server must not publish them.
    writeFileSync(join(dist, 'assets', 'app-abc123.js.map'), '{"version":3,"sources":["../src/secret.ts"]}');
    app = await startTestApp(database.db, { consoleDist: dist });
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  it('serves the console with the SPA fallback and the right caching', async () => {
    const root = await app.app.inject('/');
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('Latchkey console');
    expect(root.headers['cache-control']).toBe('no-cache');
    const deep = await app.app.inject('/project/abc/settings');
    expect(deep.statusCode).toBe(200);
    expect(deep.body).toContain('Latchkey console');
    const asset = await app.app.inject('/assets/app-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.app.inject('/assets/missing-1.js')).statusCode).toBe(404);
  });

  it('never serves source maps, even when a build left one beside the bundle (issue 7, defect 10)', async () => {
    for (const url of ['/assets/app-abc123.js.map', '/assets/app-abc123.js.MAP', '/assets/app-abc123.js.map?x=1', '/assets/app-abc123.js.ma%70']) {
      const map = await app.app.inject(url);
      expect(map.statusCode, url).toBe(404);
      expect(map.body).not.toContain('secret.ts');
    }
  });

  it('answers HEAD like GET for the console and the provider', async () => {
    expect((await app.app.inject({ method: 'HEAD', url: '/project/abc' })).statusCode).toBe(200);
    expect((await app.app.inject({ method: 'HEAD', url: '/idp/.well-known/openid-configuration' })).statusCode).toBe(200);
  });

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await app.app.inject('/api/no/such/call');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'not_found', message: 'Not found' });
    expect((await app.app.inject({ method: 'DELETE', url: '/api/projects' })).statusCode).toBe(404);
  });

  it('sends the security headers on every answer', async () => {
    for (const url of ['/', '/api/config', '/api/nope', '/idp/.well-known/openid-configuration']) {
      const res = await app.app.inject(url);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
    }
    expect(String((await app.app.inject('/')).headers['content-security-policy'])).toContain("style-src 'self' 'unsafe-inline'");
  });

  // Which calls it holds, and how, is openapi.test.ts's: one operation per contract entry.
  it('publishes the OpenAPI document, and its UI', async () => {
    const doc = await app.app.inject('/api/openapi.json');
    expect(doc.statusCode).toBe(200);
    expect(doc.json<{ openapi: string }>().openapi).toBe('3.1.0');
    const ui = await app.app.inject('/api/docs/');
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });

  it('mounts the built-in provider under /idp', async () => {
    const res = await app.app.inject('/idp/.well-known/openid-configuration');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ issuer: 'http://127.0.0.1:8080/idp', code_challenge_methods_supported: ['S256'] });
  });

  it('answers a bad JSON body with 400 validation_failed', async () => {
    const res = await app.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'validation_failed' });
  });
});

describe('behind HTTPS (PUBLIC_URL https://…)', () => {
  it('marks cookies Secure and reaches its own provider with https URLs', async () => {
    const database = await createTestDatabase('pglite');
    const app = await startTestApp(database.db, { env: { PUBLIC_URL: 'https://console.example.com' } });
    try {
      const res = await app.app.inject({
        method: 'GET',
        url: '/api/authurl?redirectURL=' + encodeURIComponent('https://console.example.com/login'),
        headers: { host: 'console.example.com', 'x-forwarded-proto': 'https' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ authUrl: string }>().authUrl.startsWith('https://console.example.com/idp/auth?')).toBe(true);
      expect(String(res.headers['set-cookie'])).toMatch(/^lk_login=[^;]+; Max-Age=900; Path=\/api; HttpOnly; Secure; SameSite=Lax$/);

      const discovery = await app.app.inject({
        url: '/idp/.well-known/openid-configuration',
        headers: { host: 'console.example.com', 'x-forwarded-proto': 'https' },
      });
      expect(discovery.json()).toMatchObject({ issuer: 'https://console.example.com/idp', token_endpoint: 'https://console.example.com/idp/token' });
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

describe('console not built', () => {
  it('answers a page saying to run npm run build', async () => {
    const database = await createTestDatabase('pglite');
    const app = await startTestApp(database.db);
    try {
      const res = await app.app.inject('/');
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('npm run build');
    } finally {
      await app.close();
      await database.drop();
    }
  });
});
