import * as client from 'openid-client';
import { beforeAll, expect, it } from 'vitest';
import { connect } from 'node:net';
import { api, XSRF_COOKIE, XSRF_HEADER } from '@latchkey/domain';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { Browser } from './support/browser.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createProject } from './support/fixtures.ts';
import { signInThroughProvider } from './support/sign-in.ts';
import { logoutForm, OFFLINE, projectWithRelyingParty, refusal, signInForTokens, type RelyingParty } from './support/relying-party.ts';

/** The status line the server answers raw bytes with (a request no HTTP client library would send). */
async function rawAnswer(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

// Issue 23 "Metrics and logs": every line JSON, each request's id in its answer (a trusted proxy's
// own passed on), and no secret, token or code in any line of a whole run of the issuer.
describeWithDatabase('the server’s log', (d) => {
  const lines: string[] = [];
  const t = useTestApp(d, { listen: true, logTo: { write: (line) => lines.push(line) }, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn;
  let p: RelyingParty;
  const secrets: Array<[string, string]> = [];

  beforeAll(async () => {
    admin = await signedInAccount(t, d.db);
    secrets.push(['session id', admin.session.sessionId], ['XSRF token', admin.session.xsrfToken]);
    p = await projectWithRelyingParty(t, admin);
    secrets.push(['client secret', p.keys.clientSecret]);
    const email = uniqueEmail('logs');
    const browser = new Browser();
    const tokens = await signInForTokens(t, browser, p, email, OFFLINE);
    secrets.push(['emailed code', t.mailer.lastCode(email) ?? ''], ['access token', tokens.access_token], ['ID token', tokens.id_token as string]);
    secrets.push(['refresh token', tokens.refresh_token as string]);
    const refreshed = await client.refreshTokenGrant(p.config, tokens.refresh_token as string);
    secrets.push(['new refresh token', refreshed.refresh_token as string]);
    // The spent refresh token again: refused (its grant revoked), and logged if anything is.
    expect(await refusal(client.refreshTokenGrant(p.config, tokens.refresh_token as string))).toBe('invalid_grant');
    await client.fetchUserInfo(p.config, refreshed.access_token, client.skipSubjectCheck).catch(() => undefined);
    // The person signs out at the issuer.
    const page = await browser.get(client.buildEndSessionUrl(p.config, { id_token_hint: refreshed.id_token as string }).href);
    const { action, xsrf } = logoutForm(page);
    await browser.request(action, { form: { xsrf, logout: 'yes' } });
    // Requests the server refuses: a bad secret, a malformed body, an unknown route.
    const wrong = await fetch(`${t.baseUrl}/p/${p.projectId}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${p.keys.clientId}:${p.keys.clientSecret}x`).toString('base64')}`,
      },
      body: 'grant_type=refresh_token&refresh_token=' + encodeURIComponent(refreshed.refresh_token as string),
    });
    expect(wrong.status).toBe(401);
    await fetch(`${t.baseUrl}/api/projects`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${SESSION_COOKIE}=${admin.session.sessionId}` },
      body: '{"name":',
    });
    await fetch(`${t.baseUrl}/nothing-here?code=${tokens.access_token}`);
    // Issue 38: requests the HTTP parser refuses (a header line without a colon, a bad character in
    // a header value) — their raw bytes hold the console's cookies and XSRF token, a client secret,
    // a service account's token.
    const service = await admin.api.post<{ token: string }>(apiPath(api.createServiceAccount, { project: p.projectId }), {
      name: 'CI deploy',
      permissions: [`cst:${p.projectId}:usage`],
      active: true,
    });
    expect(service.status, JSON.stringify(service.body)).toBe(201);
    secrets.push(['service account token', service.body.token]);
    const basic = Buffer.from(`${p.keys.clientId}:${p.keys.clientSecret}`).toString('base64');
    const cookie = `${SESSION_COOKIE}=${admin.session.sessionId}; ${XSRF_COOKIE}=${admin.session.xsrfToken}`;
    for (const malformed of [
      `POST /api/projects HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\n${XSRF_HEADER}: ${admin.session.xsrfToken}\r\nNo colon here\r\n\r\n`,
      `POST /p/${p.projectId}/token HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${basic}\r\nX-Odd: a\x01b\r\n\r\n`,
      `GET /api/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${service.body.token}\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n`,
    ])
      expect(await rawAnswer(t.baseUrl, malformed)).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('is JSON, line by line, and names no secret, token or code', () => {
    const text = lines.join('');
    // A line per request at least (debug), beside the rest.
    expect(lines.length).toBeGreaterThan(20);
    for (const line of text.split('\n').filter((l) => l !== '')) {
      const parsed = JSON.parse(line) as { level?: unknown; time?: unknown; msg?: unknown };
      expect(typeof parsed.level, line).toBe('number');
      expect(typeof parsed.time, line).toBe('number');
    }
    // Bytes a line holds as pino writes a Buffer ({"type":"Buffer","data":[80,79,…]}) read as text too.
    const bytesAsText = (_key: string, value: unknown) => {
      const buffer = value as { type?: unknown; data?: unknown } | null;
      return buffer?.type === 'Buffer' && Array.isArray(buffer.data) ? Buffer.from(buffer.data as number[]).toString('latin1') : value;
    };
    const readable = `${text}${lines.map((l) => JSON.stringify(JSON.parse(l, bytesAsText))).join('\n')}`;
    for (const [what, value] of secrets) {
      expect(value.length, what).toBeGreaterThan(5);
      expect(readable.includes(value), `the log holds the ${what}`).toBe(false);
    }
  });

  it('answers each request with its id: a trusted proxy’s X-Request-Id, else a new one', async () => {
    // The test app trusts loopback as its proxy (TRUST_PROXY=127.0.0.1,::1).
    const passed = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(passed.headers.get('x-request-id')).toBe('lb-7f3a.42');
    // Its log line carries it too.
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.requestId === 'lb-7f3a.42');
    expect(line).toMatchObject({ msg: 'request answered', method: 'GET', route: '/healthz', status: 200 });
    const own = await fetch(`${t.baseUrl}/healthz`);
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // An id that could break a log reader is not taken.
    const odd = await fetch(`${t.baseUrl}/healthz`, { headers: { 'x-request-id': 'a"b' } });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describeWithDatabase('request ids without a trusted proxy', (d) => {
  const t = useTestApp(d, { env: { TRUST_PROXY: '' } });
  it('never takes a client’s own X-Request-Id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'forged-by-client' } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

// Issue 38: a line written while serving a request names that request whoever writes it — the
// console mailer's line (an announcement, at info whatever LOG_LEVEL is), a module's warning
// through the app's log — not only the request's own logger's lines.
describeWithDatabase('every line written while serving a request', (d) => {
  const lines: string[] = [];
  const t = useTestApp(d, { listen: true, logTo: { write: (line) => lines.push(line) }, mailLines: true });

  it('carries that request’s id, at every level', async () => {
    const from = lines.length;
    const email = uniqueEmail('named');
    expect((await signInThroughProvider(t, new Browser(), email)).status).toBe(200);
    const owner = await signedInAccount(t, d.db);
    const project = await createProject(owner);
    t.mailer.failing = true;
    try {
      const added = await owner.api.post(apiPath(api.listAccounts, { project }), {
        email: uniqueEmail('unmailed'),
        permissions: [`cst:${project}:usage`],
        active: true,
      });
      expect(added.status).toBe(201);
    } finally {
      t.mailer.failing = false;
    }
    const written = lines.slice(from).map((l) => JSON.parse(l) as { level: number; msg: string; requestId?: string });
    // The requests' ids, each in its own line at debug.
    const answered = new Set(written.filter((l) => l.msg === 'request answered').map((l) => l.requestId));
    const mail = written.find((l) => l.msg.startsWith(`Sign-in code for ${email}: `));
    const warning = written.find((l) => l.msg === 'an invitation could not be sent');
    expect(mail?.level).toBe(30);
    expect(warning?.level).toBe(40);
    for (const line of written) expect(answered.has(line.requestId), JSON.stringify(line)).toBe(true);
    // Named once: a request's own logger's lines do not get it twice.
    for (const line of lines.slice(from)) expect(line.split('"requestId"').length, line).toBe(2);
    expect(mail?.requestId).not.toBe(warning?.requestId);
  });
});
