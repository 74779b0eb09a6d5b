import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { api, buildPath, errorStatusesOf, type Endpoint } from '@latchkey/domain';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createKeys, createProject, databaseFingerprint, REDIRECT } from './support/fixtures.ts';

/**
 * Issue 7, defect 4: bad input anywhere — path, query, headers, body — is a 4xx with a clear
 * message, never a 500, and changes nothing. Every call of the contract is sent thousands of
 * generated bad inputs by three kinds of caller; the whole database is fingerprinted before and
 * after. Each input is bad by construction (a control character, a lone surrogate, a wrong type or
 * broken encoding where the call needs a clean value), so none of them may write anything.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Strings no text field, id or token accepts.
const BAD_STRINGS = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', 'bell\u0007', 'esc\u001b[0m', 'del\u007f'];
// Values of the wrong type for a field whose valid example has `kind`.
function badValuesFor(example: Json): Json[] {
  const wrongTypes: Json[] = [null, [], {}];
  if (typeof example === 'string') return [...BAD_STRINGS, 12, true, ...wrongTypes];
  if (typeof example === 'boolean') return ['true', 1, 0, '\u0000', ...wrongTypes];
  if (typeof example === 'number') return ['4', '\u0000', true, ...wrongTypes];
  if (Array.isArray(example)) return ['x', null, {}, [null], ['\u0000'], [['\ud800']]];
  return ['x', null, [], 1];
}

// Query values each call that takes the parameter refuses (a clean value of the wrong form).
const OUT_OF_RANGE_QUERY: Record<string, string[]> = {
  sort: ['nope', 'NaN', '__proto__'],
  direction: ['up', 'DESC;'],
  offset: ['-1', '1e309', 'NaN', '1.5', '1000001'],
  limit: ['0', '101', 'NaN', '-1', '1e3'],
  enabled: ['yes', '1', 'TRUE'],
  platformCode: ['saml', 'OIDC'],
  redirectURL: ['-1', 'https://evil.example/login', 'javascript:alert(1)'],
  revoked: ['yes', '1', 'TRUE'],
  scope: ['nope', 'OIDC', 'console;'],
  result: ['ok', 'SUCCESS'],
  // Not a day, a day that does not exist, no zone, a range longer than a year from the default end.
  fromDate: ['yesterday', '2025-02-30', '2025-13-01', '2025-01-01T10:00:00', '2025-01-01T24:00:00Z', '1999-01-01', '+2025-01-01'],
  toDate: ['tomorrow', '2025-04-31', '2025-01-01T10:00'],
  format: ['xml', 'CSV', 'json', ''],
  // The search's text: empty, blank, longer than 250 characters.
  q: ['', '%20%20%20', 'x'.repeat(251)],
  project: [''],
};

// Percent-encoded path segments and query values that decode to nothing clean.
const BAD_ENCODED = ['%00', 'a%00b', '%ED%A0%80', '%FF', '%zz', '%0A', '%1B', '%7F', '%C0%AF', '%E2%82'];

/** Every leaf (and every inner node) of a JSON value, as paths. */
function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = prefix.length > 0 ? [prefix] : [];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function at(value: Json, path: Array<string | number>): Json {
  return path.reduce<Json>((v, k) => (v as Record<string | number, Json>)[k] as Json, value);
}

function replaced(value: Json, path: Array<string | number>, replacement: Json): Json {
  const copy = structuredClone(value);
  const parent = at(copy, path.slice(0, -1)) as Record<string | number, Json>;
  parent[path.at(-1) as string | number] = replacement;
  return copy;
}

/** An API error answer: JSON with a stable code and a message a person can read. */
function hasMessage(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    return typeof parsed.error === 'string' && typeof parsed.message === 'string' && parsed.message.length > 0;
  } catch {
    return false;
  }
}

interface BadRequest {
  label: string;
  method: Endpoint['method'];
  url: string;
  /** The contract entry the request is sent to (its answers must be among the statuses it declares). */
  endpoint?: Endpoint;
  payload?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

describeWithDatabase('bad input never answers 5xx and never writes', (t) => {
  const app = useTestApp(t);
  let owner: SignedIn;
  let outsider: SignedIn;
  let projectId: string;
  let appId: string;
  beforeAll(async () => {
    owner = await signedInAccount(app, t.db, ['glb::*']);
    outsider = await signedInAccount(app, t.db);
    projectId = await createProject(owner, 'Fuzzed');
    appId = await createApp(owner, projectId);
    await createKeys(owner, appId);
    await createProject(outsider, 'Elsewhere');
  });

  /** A valid request body for each call that takes one, read from the running app where it is a whole document. */
  async function validBodies(): Promise<Partial<Record<keyof typeof api, Json>>> {
    const project = (await owner.api.get<Json>(apiPath(api.getProject, { project: projectId }))).body;
    const issuer = (await owner.api.get<Json>(apiPath(api.getIssuer, { project: projectId }))).body;
    return {
      login: { code: 'abc', redirectURL: `${app.config.publicUrl}/login`, state: 'xyz' },
      createProject: { name: 'New', pinLength: 4, email: 'someone@example.com' },
      updateProject: project,
      updateProjectMeta: { enabled: false },
      updateIssuer: issuer,
      createApp: { platformCode: 'oidc', name: 'App', url: 'https://app.example.com', projectId },
      updateApp: { name: 'Renamed', logoUrl: '', enabled: true },
      createAppKeys: { redirectURI: [REDIRECT] },
      updateAppKeys: { redirectURI: [REDIRECT] },
      generateAppKeys: { redirectURI: [REDIRECT] },
      revokeDevice: { reason: 'PORTAL_REVOKE' },
      createAccount: { email: 'fuzzed-person@example.com', permissions: [`cst:${projectId}:usage`], active: true },
      updateAccount: { permissions: [`cst:${projectId}:usage`], active: true },
      createServiceAccount: { name: 'Fuzzed CI', permissions: [`cst:${projectId}:apps`], active: true },
      rotateServiceToken: {},
      // An address the server does not call: the valid body is refused (400) and stores nothing.
      createWebhook: { url: 'http://169.254.169.254/hooks', eventTypes: ['sign_in.succeeded'] },
      updateWebhook: { url: 'https://hooks.example.com/in', eventTypes: ['sign_in.succeeded'] },
      // A filter no device matches: the valid body would revoke nothing.
      revokeDevices: {
        reason: 'PORTAL_REVOKE',
        filter: { userId: 'nobody@example.com', deviceName: 'x', ip: '10.', fromDate: '2025-01-01', toDate: '2025-01-31' },
        limit: 10,
        expectedCount: 0,
      },
    };
  }

  // mpinId: a well-formed credential id no device has (a revocation answers 404 and writes nothing).
  const validParams = (): Record<string, string> => ({
    project: projectId,
    application: appId,
    accountId: owner.account.id,
    mpinId: 'AAAAAAAAAAAAAAAAAAAAAA',
    // No account of the project has this id: changing it answers 404 and writes nothing.
    account: 'no-such-account',
    // No end user of the project has this id, nor session: every change answers 404 and writes nothing.
    user: 'no-such-user',
    session: 'no-such-session',
    webhook: 'no-such-webhook',
    delivery: 'no-such-delivery',
    import: 'no-such-import',
  });

  function badRequests(bodies: Partial<Record<keyof typeof api, Json>>): BadRequest[] {
    const out: BadRequest[] = [];
    for (const [name, endpoint] of Object.entries(api) as Array<[keyof typeof api, Endpoint]>) {
      const params = validParams();
      const url = apiPath(endpoint, params);
      const body = bodies[name];
      const json = body === undefined ? undefined : JSON.stringify(body);
      const base = { method: endpoint.method, endpoint, ...(json !== undefined ? { payload: json, contentType: 'application/json' } : {}) };

      // The path: each parameter replaced by a broken or unclean segment.
      for (const param of endpoint.path.match(/:(\w+)/g) ?? []) {
        for (const bad of [...BAD_ENCODED, 'x'.repeat(101)]) {
          const path = buildPath(endpoint.path, params).replace(encodeURIComponent(params[param.slice(1)] as string), bad);
          out.push({ ...base, label: `${name} path ${param}=${bad}`, url: `/api${path}` });
        }
      }
      // The query: unclean names and values on every call; out-of-range values for the parameters a call takes.
      for (const q of ['sort', 'offset', 'name', 'redirectURL', 'state_next', 'x']) {
        for (const bad of BAD_ENCODED) out.push({ ...base, label: `${name} query ${q}=${bad}`, url: `${url}?${q}=${bad}` });
      }
      out.push({ ...base, label: `${name} query name %00`, url: `${url}?%00=1` });
      const known = endpoint.query instanceof z.ZodObject ? Object.keys(endpoint.query.shape) : [];
      for (const [q, values] of Object.entries(OUT_OF_RANGE_QUERY)) {
        if (!known.includes(q)) continue;
        for (const bad of values) {
          // The users lists take any range (ALL_TIME_RANGE): a range longer than a year is valid there.
          if (endpoint.tag === 'users' && bad === '1999-01-01') continue;
          out.push({ ...base, label: `${name} query ${q}=${bad}`, url: `${url}?${q}=${bad}` });
        }
      }
      // Headers: unclean cookies on every call; stale or unreadable If-Match where the call honours it.
      for (const bad of ['%00', '%ED%A0%80', 'a%00b', '%0A']) {
        out.push({ ...base, label: `${name} cookie ${bad}`, url, headers: { cookie: `${SESSION_COOKIE}=${bad}` } });
      }
      // The writes that honour If-Match (docs/decisions/0007) declare 412: a stale or unreadable one is refused.
      if (errorStatusesOf(endpoint).includes(412)) {
        for (const bad of ['W/"x"', '"99999999999"', '*, "1"', '"0"', 'garbage'])
          out.push({ ...base, label: `${name} if-match ${bad}`, url, headers: { 'if-match': bad } });
      }

      if (body === undefined) continue;
      // The body: every field (and every object and array) replaced by a value it cannot take.
      for (const path of paths(body)) {
        for (const bad of badValuesFor(at(body, path))) {
          out.push({
            ...base,
            label: `${name} body ${path.join('.')}=${JSON.stringify(bad)}`,
            url,
            payload: JSON.stringify(replaced(body, path, bad)),
          });
        }
      }
      // The whole body: not JSON, not an object, or not what the media type says.
      for (const raw of ['{', '[]', '"x"', '123', 'null', '{"a":1}{', '\u0000', `{"name":"${'\\u0000'}"}`, '['.repeat(5000)]) {
        out.push({ ...base, label: `${name} raw body ${raw.slice(0, 12)}`, url, payload: raw, contentType: 'application/json' });
      }
      // Bytes that are not UTF-8 inside a JSON string: refused, never stored as U+FFFD.
      for (const bytes of [[0xed, 0xa0, 0x80], [0xff], [0xc0, 0xaf], [0xe2, 0x82], [0x80]]) {
        for (const path of paths(body).filter((p) => typeof at(body, p) === 'string')) {
          const marked = JSON.stringify(replaced(body, path, '\u0001MARK\u0001'));
          const [before, after] = marked.split('\\u0001MARK\\u0001') as [string, string];
          const payload = Buffer.concat([Buffer.from(before), Buffer.from('a'), Buffer.from(bytes), Buffer.from('b'), Buffer.from(after)]);
          out.push({ ...base, label: `${name} body ${path.join('.')} bytes ${bytes.join(' ')}`, url, payload, contentType: 'application/json' });
        }
      }
      out.push({ ...base, label: `${name} text body`, url, payload: json ?? 'x', contentType: 'text/plain' });
      out.push({ ...base, label: `${name} form body`, url, payload: 'name=%00', contentType: 'application/x-www-form-urlencoded' });
      out.push({ ...base, label: `${name} 2 MB body`, url, payload: `{"name":"${'x'.repeat(2 * 1024 * 1024)}"}`, contentType: 'application/json' });
    }
    // The providers' and the console's own paths are guarded the same way.
    for (const bad of BAD_ENCODED) {
      out.push({ label: `idp auth ${bad}`, method: 'GET', url: `/idp/auth?client_id=${bad}&response_type=code&scope=openid&redirect_uri=x` });
      out.push({ label: `idp interaction ${bad}`, method: 'GET', url: `/idp/interaction/${bad}` });
      out.push({
        label: `idp email ${bad}`,
        method: 'POST',
        url: `/idp/interaction/${bad}/email`,
        payload: `email=${bad}`,
        contentType: 'application/x-www-form-urlencoded',
      });
      out.push({
        label: `idp token ${bad}`,
        method: 'POST',
        url: '/idp/token',
        payload: `grant_type=authorization_code&client_id=${bad}&code=${bad}`,
        contentType: 'application/x-www-form-urlencoded',
      });
      out.push({ label: `console ${bad}`, method: 'GET', url: `/project/${bad}/apps` });
    }
    return out;
  }

  it('answers every one of thousands of bad inputs with a 4xx and a message, and writes nothing', { timeout: 600_000 }, async () => {
    const requests = badRequests(await validBodies());
    const callers: Array<[string, SignedIn | null]> = [
      ['owner', owner],
      ['outsider', outsider],
      ['anonymous', null],
    ];
    const before = await databaseFingerprint(t.db);
    const failures: string[] = [];
    let sent = 0;
    for (const [who, caller] of callers) {
      for (const r of requests) {
        const headers: Record<string, string> = { ...(r.contentType ? { 'content-type': r.contentType } : {}) };
        if (caller) {
          headers.cookie = `${SESSION_COOKIE}=${caller.session.sessionId}; XSRF-TOKEN=${caller.session.xsrfToken}`;
          headers['x-xsrf-token'] = caller.session.xsrfToken;
        }
        Object.assign(headers, r.headers);
        let status: number;
        let body: string;
        try {
          const res = await app.app.inject({ method: r.method, url: r.url, headers, ...(r.payload !== undefined ? { payload: r.payload } : {}) });
          status = res.statusCode;
          body = res.body;
        } catch (error) {
          // The HTTP layer itself refusing a header (as Node's parser would) is not an answer of ours.
          if (error instanceof TypeError && /header/i.test(error.message)) continue;
          throw error;
        }
        sent += 1;
        if (status < 400 || status >= 500) failures.push(`${who} ${r.label}: ${status} ${body.slice(0, 200)}`);
        // The OpenAPI document declares every error status a call answers (issue 7, defect 12).
        else if (r.endpoint && !errorStatusesOf(r.endpoint).includes(status as never))
          failures.push(`${who} ${r.label}: ${status} is not declared for this call: ${body.slice(0, 200)}`);
        else if (r.url.startsWith('/api/') && !hasMessage(body))
          failures.push(`${who} ${r.label}: ${status} without a message: ${body.slice(0, 200)}`);
      }
    }
    expect(sent).toBeGreaterThanOrEqual(5000);
    expect(failures).toEqual([]);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
