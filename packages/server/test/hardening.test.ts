import { SESSION_COOKIE } from '@latchkey/domain';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { createSecretBox } from '../src/crypto.ts';
import { sealStoredPushKeys } from '../src/modules/projects/push-keys.ts';
import { readSecretKey, SECRET_KEY_FILE } from '../src/secret-key.ts';
import { signedInAccount, startTestApp, storedSessionRef, TEST_SECRET_KEY, uniqueEmail, type TestApp, useTestApp } from './support/app.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { createProject, getProject, serviceAccountKey } from './support/fixtures.ts';
import { emailAction, openSignIn, postLogin, submitCode, submitEmail } from './support/sign-in.ts';

const TABLES_WITH_SECRETS = ['sessions', 'login_codes', 'oidc_payloads', 'server_keys'] as const;

/** Every string value (at any depth) of a JSON-like value. */
function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsIn(v, into);
  return into;
}

describeWithDatabase('logout from another site (issue 7, defect 6)', (t) => {
  const app = useTestApp(t);

  it('refuses GET /api/logout sent by another site (Sec-Fetch-Site, Origin) and keeps the session', async () => {
    const me = await signedInAccount(app, t.db);
    const crossSite: Array<Record<string, string>> = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-origin', origin: 'http://127.0.0.1:8081' },
    ];
    for (const headers of crossSite) {
      const refused = await me.api.get('/api/logout', { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(refused.body).toMatchObject({ error: 'forbidden' });
      expect(refused.headers['set-cookie']).toBeUndefined();
    }
    expect((await me.api.get('/api/account')).status).toBe(200);

    const own = await me.api.get('/api/logout', { headers: { 'sec-fetch-site': 'same-origin', origin: app.config.publicUrl } });
    expect(own.status).toBe(200);
    expect((await me.api.get('/api/account')).status).toBe(401);
  });
});

describeWithDatabase('secrets at rest (issue 7, defect 8)', (t) => {
  const app = useTestApp(t, { listen: true });

  async function rowsOf(table: string): Promise<Array<Record<string, unknown>>> {
    const { rows } = await t.db.query<Record<string, unknown>>(`SELECT * FROM ${table}`);
    return rows;
  }

  it('keeps no session id, XSRF token, code, token or private key in plain text: a copy of the database signs nobody in', async () => {
    const browser = new Browser();
    const email = uniqueEmail('copied');
    const emailPage = await openSignIn(app, browser);
    const interactionUid = new URL(emailPage.url).pathname.split('/').at(-1) as string;
    const codePage = await submitEmail(browser, emailPage, email);
    const code = app.mailer.lastCode(email);
    // Before the code is used: the pending code is in the table now.
    const pending = JSON.stringify(await rowsOf('login_codes'));
    const back = await submitCode(app, browser, codePage, code);
    const authorizationCode = new URL(back.location as string).searchParams.get('code') as string;
    const login = await postLogin(app, browser, back.location as string);
    expect(login.status, login.text).toBe(200);

    const secrets: Record<string, string> = {
      'session id': browser.cookie(SESSION_COOKIE) as string,
      'XSRF token': browser.cookie('XSRF-TOKEN') as string,
      'provider session id': browser.cookie('lk_issuer_session') as string,
      'interaction uid': interactionUid,
      'authorization code': authorizationCode,
      'sha256 of the session id': createHash('sha256')
        .update(browser.cookie(SESSION_COOKIE) as string)
        .digest('hex'),
      'sha256 of address and code': createHash('sha256').update(`${email}\n${code}`).digest('hex'),
    };
    // What the master key opens: the provider's keys and artefacts. None may show without it.
    const box = app.services.secretBox;
    for (const row of await rowsOf('server_keys')) {
      expect(row.value, String(row.name)).toBeNull();
      for (const value of stringsIn(box.openJson(row.sealed as string, `server_keys:${String(row.name)}`))) {
        if (value.length >= 16) secrets[`${String(row.name)} value`] = value;
      }
    }
    let artefacts = 0;
    for (const row of await rowsOf('oidc_payloads')) {
      const payload = box.openJson<Record<string, unknown>>(
        row.payload as string,
        `project_oidc_payloads:${String(row.issuer)}:${String(row.kind)}:${String(row.id)}`,
      );
      artefacts += 1;
      for (const key of ['jti', 'uid', 'grantId', 'sessionUid'] as const) {
        if (typeof payload[key] === 'string') secrets[`${String(row.kind)} ${key}`] = payload[key];
      }
    }
    expect(artefacts).toBeGreaterThan(0);
    expect(Object.values(secrets).every((s) => typeof s === 'string' && s.length > 0)).toBe(true);

    const copy = JSON.stringify(await Promise.all(TABLES_WITH_SECRETS.map((table) => rowsOf(table)))) + pending;
    for (const [what, secret] of Object.entries(secrets)) expect(copy.includes(secret), what).toBe(false);
    // The six digits standing alone (not inside a longer keyed hash or ciphertext).
    expect(new RegExp(`(^|[^A-Za-z0-9_-])${code}($|[^A-Za-z0-9_-])`).test(copy)).toBe(false);
    // No JSON Web Token (the ID token kept as the logout hint is sealed), no PEM or JWK private part.
    expect(copy).not.toMatch(/eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\./);
    expect(copy).not.toMatch(/"d":|PRIVATE KEY/);

    // And the XSRF check compares keyed hashes: the stored value is not a token the header can echo.
    const { rows } = await t.db.query<{ xsrf_hash: string }>('SELECT xsrf_hash FROM sessions WHERE id_hash = $1', [
      storedSessionRef(app, secrets['session id'] as string),
    ]);
    const stored = rows[0]?.xsrf_hash as string;
    const forged = await browser.request(`${app.baseUrl}/api/projects`, { json: { name: 'x' }, headers: { 'x-xsrf-token': stored } });
    expect(forged.status).toBe(403);
    expect(forged.json()).toMatchObject({ error: 'xsrf_failed' });
  });

  it('reads what the previous master key sealed while rotating, seals it again, and refuses to start with an unknown key', async () => {
    const jwks = async (a: TestApp) => (await a.app.inject({ url: '/idp/jwks' })).json<{ keys: Array<{ kid: string; n: string }> }>().keys;
    const before = await jwks(app);
    const next = randomBytes(32).toString('base64');
    const rotated = await startTestApp(t.db, { env: { SECRET_KEY: next, SECRET_KEY_PREVIOUS: TEST_SECRET_KEY } });
    try {
      // The same signing key, read through the previous master key…
      expect(await jwks(rotated)).toEqual(before);
      // …and sealed again under the new one.
      const newBox = createSecretBox(Buffer.from(next, 'base64'));
      for (const row of await rowsOf('server_keys')) {
        expect(newBox.isStale(row.sealed as string), String(row.name)).toBe(false);
        expect(() => newBox.open(row.sealed as string, `server_keys:${String(row.name)}`)).not.toThrow();
      }
    } finally {
      await rotated.close();
    }
    // A key that sealed none of it: start-up stops with a message saying what to do.
    await expect(startTestApp(t.db, { env: { SECRET_KEY: randomBytes(32).toString('base64') } })).rejects.toThrow(/SECRET_KEY_PREVIOUS/);
    // Back to the suite's key for the tests after this one.
    const back = await startTestApp(t.db, { env: { SECRET_KEY: TEST_SECRET_KEY, SECRET_KEY_PREVIOUS: next } });
    await back.close();
    expect(await jwks(app)).toEqual(before);
  });
});

describeWithDatabase('push keys at rest (issue 7, defect 8)', (t) => {
  const app = useTestApp(t);
  const KEY = serviceAccountKey('fb-1', 'old');

  interface StoredProject {
    text: string;
    config: string;
    version: number;
    updatedAt: Date;
  }
  async function stored(id: string): Promise<StoredProject> {
    const { rows } = await t.db.query<StoredProject>(
      `SELECT settings::text AS text, settings #>> '{pushOptions,platforms,0,config}' AS config, version, updated_at AS "updatedAt" FROM projects WHERE id = $1`,
      [id],
    );
    return rows[0] as StoredProject;
  }

  /** A project with a push key, saved through the API (sealed under the suite's master key). */
  async function projectWithPushKey(): Promise<{ id: string; etag: unknown }> {
    const global = await signedInAccount(app, t.db, ['glb::projects']);
    const id = await createProject(global);
    const pushOptions = { allowed: true, enabled: true, projectId: 'fb-1', platforms: [{ name: 'firebase', projectId: 'fb-1', config: KEY }] };
    const saved = await global.api.put(`/api/projects/${id}`, { ...(await getProject(global, id)), pushOptions });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    return { id, etag: saved.headers.etag };
  }

  const etagOf = async (id: string) => (await (await signedInAccount(app, t.db, ['glb::projects'])).api.get(`/api/projects/${id}`)).headers.etag;

  it('seals at start a push key an earlier version stored in plain text, once when two instances start together, keeping the version', async () => {
    const { id } = await projectWithPushKey();
    // As a version before sealing wrote it: the key itself in the settings document.
    await t.db.query(`UPDATE projects SET settings = jsonb_set(settings, '{pushOptions,platforms,0,config}', to_jsonb($2::text)) WHERE id = $1`, [
      id,
      KEY,
    ]);
    const before = await stored(id);
    expect(before.text).toContain('PRIVATE KEY');
    const etag = await etagOf(id);

    const instances = await Promise.all([startTestApp(t.db), startTestApp(t.db)]);
    await Promise.all(instances.map((instance) => instance.close()));

    const after = await stored(id);
    expect(after.text).not.toContain('PRIVATE KEY');
    expect(app.services.secretBox.isSealed(after.config)).toBe(true);
    expect(app.services.secretBox.open(after.config, `project:${id}:push:firebase`)).toBe(KEY);
    expect({ version: after.version, updatedAt: after.updatedAt }).toEqual({ version: before.version, updatedAt: before.updatedAt });
    expect(await etagOf(id)).toBe(etag);
    // A start with nothing to do writes nothing: the sealed value stays byte for byte.
    await (await startTestApp(t.db)).close();
    expect((await stored(id)).config).toBe(after.config);
  });

  it('seals again under the new master key what the previous one sealed, so it opens once SECRET_KEY_PREVIOUS is gone', async () => {
    const { id, etag } = await projectWithPushKey();
    const before = await stored(id);
    const next = randomBytes(32).toString('base64');
    await (await startTestApp(t.db, { env: { SECRET_KEY: next, SECRET_KEY_PREVIOUS: TEST_SECRET_KEY } })).close();

    const after = await stored(id);
    const newKeyOnly = createSecretBox(Buffer.from(next, 'base64'));
    expect(newKeyOnly.isStale(after.config)).toBe(false);
    expect(newKeyOnly.open(after.config, `project:${id}:push:firebase`)).toBe(KEY);
    expect({ version: after.version, updatedAt: after.updatedAt }).toEqual({ version: before.version, updatedAt: before.updatedAt });
    expect(await etagOf(id)).toBe(etag);

    // Back to the suite's key for the tests after this one (server keys and push keys alike).
    await (await startTestApp(t.db, { env: { SECRET_KEY: TEST_SECRET_KEY, SECRET_KEY_PREVIOUS: next } })).close();
    expect(app.services.secretBox.open((await stored(id)).config, `project:${id}:push:firebase`)).toBe(KEY);
  });

  it('leaves a push key no known master key opens as it is, with a warning (a lost key: the admin enters it again)', async () => {
    const { id } = await projectWithPushKey();
    const before = await stored(id);
    const warnings: object[] = [];
    await sealStoredPushKeys(t.db, createSecretBox(randomBytes(32)), { warn: (details) => warnings.push(details) });
    expect(await stored(id)).toEqual(before);
    expect(warnings).toContainEqual({ projectId: id, platform: 'firebase' });
  });
});

describe('the master key file', () => {
  it('is created once in DATA_DIR with mode 0600, and a key file others may read is refused', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'latchkey-key-')), 'data');
    const config = { ...loadConfig({ DATA_DIR: dataDir }), dataDir };
    expect(config.secretKey).toBeNull();
    const key = readSecretKey(config);
    expect(key.length).toBe(32);
    const path = join(dataDir, SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readSecretKey(config).equals(key)).toBe(true);

    chmodSync(path, 0o644);
    expect(() => readSecretKey(config)).toThrow(`${path} may be read by other users; run: chmod 600 ${path}`);
    chmodSync(path, 0o600);
    writeFileSync(path, 'too short\n', { mode: 0o600 });
    expect(() => readSecretKey(config)).toThrow(/must hold base64 of 32 bytes/);
  });
});

describeWithDatabase('transport and proxies (issue 7, defect 9)', (t) => {
  it('pins the provider to PUBLIC_URL: https cookies are Secure and HSTS is sent on /idp, whatever the request says', async () => {
    const app = await startTestApp(t.db, { env: { PUBLIC_URL: 'https://console.example.com' } });
    try {
      const authurl = await app.app.inject({ url: '/api/authurl?redirectURL=' + encodeURIComponent('https://console.example.com/login') });
      const authUrl = new URL(authurl.json<{ authUrl: string }>().authUrl);
      // No X-Forwarded-Proto at all (a proxy that does not send it): still https.
      const auth = await app.app.inject({ url: `${authUrl.pathname}${authUrl.search}`, headers: { host: 'evil.example' } });
      expect(auth.statusCode).toBe(303);
      expect(String(auth.headers.location)).toMatch(/^\/idp\/interaction\//);
      const cookies = ([] as string[]).concat(auth.headers['set-cookie'] as string[]);
      expect(cookies.filter((c) => c.startsWith('lk_issuer_')).length).toBeGreaterThan(0);
      for (const cookie of cookies) expect(cookie.toLowerCase(), cookie).toContain('; secure');
      expect(auth.headers['strict-transport-security']).toBe('max-age=31536000');

      const discovery = await app.app.inject({ url: '/idp/.well-known/openid-configuration', headers: { host: 'evil.example' } });
      expect(discovery.headers['strict-transport-security']).toBe('max-age=31536000');
      const page = await app.app.inject({ url: String(auth.headers.location), headers: { cookie: cookies.map((c) => c.split(';')[0]).join('; ') } });
      expect(page.statusCode).toBe(200);
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await app.close();
    }
  });

  it('ignores X-Forwarded-Proto and Host over plain http: no Secure cookie, no HSTS, the discovery document names PUBLIC_URL', async () => {
    const app = await startTestApp(t.db);
    try {
      const forged = {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        forwarded: 'host=evil.example;proto=https',
      };
      const discovery = await app.app.inject({ url: '/idp/.well-known/openid-configuration', headers: forged });
      expect(discovery.statusCode).toBe(200);
      const document = discovery.json<Record<string, unknown>>();
      expect(document.issuer).toBe(`${app.config.publicUrl}/idp`);
      for (const [name, value] of Object.entries(document)) {
        if (typeof value === 'string' && name.endsWith('_endpoint')) expect(value, name).toMatch(new RegExp(`^${app.config.publicUrl}/idp/`));
      }
      expect(discovery.headers['strict-transport-security']).toBeUndefined();

      const authurl = await app.app.inject({ url: '/api/authurl?redirectURL=' + encodeURIComponent(`${app.config.publicUrl}/login`) });
      const authUrl = new URL(authurl.json<{ authUrl: string }>().authUrl);
      const auth = await app.app.inject({ url: `${authUrl.pathname}${authUrl.search}`, headers: forged });
      expect(auth.statusCode).toBe(303);
      for (const cookie of ([] as string[]).concat(auth.headers['set-cookie'] as string[])) {
        expect(cookie.toLowerCase(), cookie).not.toContain('secure');
      }
    } finally {
      await app.close();
    }
  });

  it('believes X-Forwarded-For only from TRUST_PROXY: without it, every browser behind one address shares its limits', async () => {
    const email = uniqueEmail('proxied');
    const sendFive = async (a: TestApp, browser: Browser) => {
      for (let i = 0; i < 5; i++) expect((await submitEmail(browser, await openSignIn(a, browser), email)).status).toBe(200);
    };
    const askOnce = async (a: TestApp, browser: Browser): Promise<BrowserResponse> =>
      browser.request(emailAction(await openSignIn(a, browser)), { form: { email } });

    const direct = await startTestApp(t.db, { listen: true, env: { TRUST_PROXY: '' } });
    try {
      await sendFive(direct, new Browser({ clientIp: '203.0.113.1' }));
      // A different X-Forwarded-For from the same socket address is the same client.
      expect((await askOnce(direct, new Browser({ clientIp: '203.0.113.2' }))).status).toBe(429);
    } finally {
      await direct.close();
    }

    const behindProxy = await startTestApp(t.db, { listen: true, env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const other = uniqueEmail('proxied');
      const first = new Browser({ clientIp: '203.0.113.3' });
      for (let i = 0; i < 5; i++) expect((await submitEmail(first, await openSignIn(behindProxy, first), other)).status).toBe(200);
      expect((await first.request(emailAction(await openSignIn(behindProxy, first)), { form: { email: other } })).status).toBe(429);
      // Behind a trusted proxy, another client address is another client.
      const second = new Browser({ clientIp: '203.0.113.4' });
      expect((await submitEmail(second, await openSignIn(behindProxy, second), other)).status).toBe(200);
    } finally {
      await behindProxy.close();
    }
  });
});
