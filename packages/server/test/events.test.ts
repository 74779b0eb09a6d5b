import * as client from 'openid-client';
import { describe, expect, it } from 'vitest';
import { api, buildPath, devicesApi, REVOCATION_REASON, type AuditList } from '@latchkey/domain';
import { openPglite } from '../src/db/pglite.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { countryLookup } from '../src/geoip.ts';
import { eventId } from '../src/events/audit-events.repository.ts';
import { ensureEventPartitions, MONTHS_AHEAD, partitionName } from '../src/modules/audit/event-partitions.ts';
import { REFUSALS_PER_CLIENT } from '../src/events/project-events.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type Passkey, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase, PGLITE_TEST_SETTINGS } from './support/databases.ts';
import { apiPath, closeProject, personOf, REDIRECT, setEnabled } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** An address the offline database places in Great Britain, and one in Romania (IPv6 is tested below). */
const IN_GB = '81.2.69.160';
const IN_RO = '193.231.20.1';

interface EventRow {
  user_id: string | null;
  device_name: string | null;
  scope: string;
  event_status: string;
  ip: string | null;
  country: string | null;
  client_id: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

describe('country of an address (offline database)', () => {
  const { countryOf } = countryLookup();
  it.each([
    ['8.8.8.8', 'US'],
    [IN_GB, 'GB'],
    [IN_RO, 'RO'],
    [`::ffff:${IN_GB}`, 'GB'],
    ['2a00:1450:4001:80b::200e', 'IE'],
  ])('places %s in %s', (ip, country) => {
    expect(countryOf(ip)).toBe(country);
  });

  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.20.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '198.18.0.7',
    '203.0.113.9',
    '::1',
    'fe80::1',
    'fd00::1',
    '2001:db8::1',
  ])('answers ZZ (unknown) for the address %s, which is nowhere', (ip) => {
    expect(countryOf(ip)).toBe('ZZ');
  });

  it.each(['', 'not an address', '999.1.1.1', null, undefined])('answers ZZ for %s', (ip) => {
    expect(countryOf(ip)).toBe('ZZ');
  });
});

describe('event ids', () => {
  it('are UUIDv7 that sort in the order they were made, also within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => eventId(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 10)) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

it('migration 0010 moves the events written before it into monthly partitions, in their order', async () => {
  const db = await openPglite(null, { settings: PGLITE_TEST_SETTINGS });
  try {
    const before = loadMigrations().filter((m) => m.version < '0010');
    await migrate(db, before);
    for (const [at, action] of [
      ['2026-09-30T23:59:59Z', 'project.create'],
      ['2026-10-01T00:00:00Z', 'app.create'],
      ['2026-10-01T00:00:00Z', 'app.disable'],
    ] as const) {
      await db.query(`INSERT INTO audit_events (project_id, created_at, scope, event_status, details) VALUES ('p1', $1, 'console', 'success', $2)`, [
        at,
        JSON.stringify({ action }),
      ]);
    }
    await migrate(db);
    const { rows } = await db.query<{ part: string; action: string }>(
      `SELECT tableoid::regclass::text AS part, details->>'action' AS action FROM audit_events ORDER BY project_id, created_at, id`,
    );
    expect(rows).toEqual([
      { part: 'audit_events_202609', action: 'project.create' },
      { part: 'audit_events_202610', action: 'app.create' },
      { part: 'audit_events_202610', action: 'app.disable' },
    ]);
    const made = await ensureEventPartitions(db, new Date('2026-10-15T12:00:00Z'));
    expect(made).toEqual({ created: ['audit_events_202611', 'audit_events_202612', 'audit_events_202701'], dropped: [] });
    expect(await ensureEventPartitions(db, new Date('2026-10-15T12:00:00Z'), 25)).toEqual({ created: [], dropped: [] });
    // Retention drops whole months older than it, and only those: in September 2027, keeping the 11
    // months before the current one (October 2026 on), September 2026 goes.
    expect(await ensureEventPartitions(db, new Date('2027-09-20T00:00:00Z'), 11)).toEqual({
      created: ['audit_events_202709', 'audit_events_202710', 'audit_events_202711', 'audit_events_202712'],
      dropped: ['audit_events_202609'],
    });
    const { rows: left } = await db.query<{ action: string }>(`SELECT details->>'action' AS action FROM audit_events ORDER BY created_at, id`);
    expect(left.map((r) => r.action)).toEqual(['app.create', 'app.disable']);
  } finally {
    await db.close();
  }
});

// Issue 8 "Every event is data" (docs/decisions/0014): each registration, sign-in, refusal, code and
// revocation is one audit event, and what counts is counted in the usage rollups, in its transaction.
describeEachDatabase('end-user events and usage at a project issuer', (d) => {
  const t = useTestApp(d, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });
  let admin: SignedIn | undefined;
  const adminOf = async () => (admin ??= await signedInAccount(t, d.db));
  const project = async () => projectWithRelyingParty(t, await adminOf());

  /** The project's events but the console's set-up ones (project, application and keys created or switched). */
  async function eventsOf(projectId: string): Promise<EventRow[]> {
    const { rows } = await d.db.query<EventRow>(
      `SELECT user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details
         FROM audit_events WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    );
    // The passkey offer's own events (docs/decisions/0050) are passkey-enrollment.test.ts's.
    return rows.filter(
      (e) =>
        (e.scope !== 'console' || !/^(project\.create|app\.)/.test(String(e.details.action))) &&
        !String(e.details.action).startsWith('passkey.offer.'),
    );
  }
  const summary = (rows: EventRow[]) => rows.map((e) => `${e.scope} ${String(e.details.action)} ${e.event_status}`);

  async function usageOf(projectId: string) {
    const count = async (table: string, extra = '') => {
      const { rows } = await d.db.query<{ key: string; n: string }>(
        `SELECT key${extra} AS key, sum(count)::text AS n FROM ${table} WHERE project_id = $1 GROUP BY 1 ORDER BY 1`,
        [projectId],
      );
      return Object.fromEntries(rows.map((r) => [r.key, Number(r.n)]));
    };
    return {
      hourly: await count('usage_hourly'),
      daily: await count('usage_daily'),
      byCountry: await count('usage_daily_country', " || ' ' || country"),
    };
  }

  async function page1(browser: Browser, p: RelyingParty) {
    const request = await authorizationRequest(p);
    const page = (await browser.follow(await browser.get(request.url.href))).at(-1) as BrowserResponse;
    expect(page.status, page.text).toBe(200);
    return { request, page };
  }

  async function exchange(p: RelyingParty, callback: BrowserResponse, verifier: string) {
    expect(callback.location ?? '', callback.text).toMatch(new RegExp(`^${REDIRECT}\\?`));
    return client.authorizationCodeGrant(p.config, new URL(callback.location as string), { pkceCodeVerifier: verifier });
  }

  /** A new user: address, code, "Create a passkey", back to the app and the code exchanged. */
  async function register(p: RelyingParty, browser: Browser, email: string): Promise<Passkey> {
    const { request, page } = await page1(browser, p);
    const codePage = await submitEmail(browser, page, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: t.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), t.baseUrl);
    const after = await untilApp(
      browser,
      await browser.request(formAction(offer), { form: { response: JSON.stringify(response) }, headers: { 'user-agent': CHROME_ON_LINUX } }),
    );
    await exchange(p, after, request.verifier);
    return passkey;
  }

  /** A returning user with their passkey; answers the last page (the app's callback, or a refusal). */
  async function passkeySignIn(p: RelyingParty, browser: Browser, email: string, passkey: Passkey) {
    const { request, page } = await page1(browser, p);
    const passkeyPage = await submitEmail(browser, page, email);
    if (passkeyPage.status !== 200) return { request, last: passkeyPage };
    const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), t.baseUrl);
    const last = await untilApp(browser, await browser.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } }));
    return { request, last };
  }

  it('registration, passkey sign-in, codes and revocation are events with user, device, address, country, client and agent; usage counts them', async () => {
    const p = await project();
    const email = uniqueEmail('events');
    const browser = new Browser({ clientIp: IN_GB });
    const passkey = await register(p, browser, email);

    const again = await passkeySignIn(p, new Browser({ clientIp: IN_RO }), email, passkey);
    await exchange(p, again.last, again.request.verifier);

    const revoked = await (
      await adminOf()
    ).api.post(`/api${buildPath(devicesApi.revokeDevice.path, { project: p.projectId, mpinId: passkey.id })}`, { reason: REVOCATION_REASON });
    expect(revoked.status).toBe(200);
    const refused = await passkeySignIn(p, new Browser({ clientIp: IN_RO }), email, passkey);
    expect(refused.last.status).toBe(403);

    const events = await eventsOf(p.projectId);
    expect(summary(events)).toEqual([
      'oidc device.register created',
      'oidc sign_in success',
      'authcode code.issued success',
      'authcode code.exchanged success',
      'oidc sign_in success',
      'authcode code.issued success',
      'authcode code.exchanged success',
      'console device.revoke success',
      'oidc sign_in denied',
    ]);
    const [registration, codeSignIn, issued, , passkeyUse, , , revocation, denied] = events;
    // Events name the person by id, never by their address (docs/decisions/0046).
    const sub = await personOf(d.db, p.projectId, email);
    expect(events.filter((e) => JSON.stringify(e).includes(email))).toEqual([]);
    expect(registration).toMatchObject({
      user_id: sub,
      device_name: 'Chrome on Linux',
      ip: IN_GB,
      country: 'GB',
      client_id: p.keys.clientId,
      user_agent: CHROME_ON_LINUX,
      details: { action: 'device.register', mpinId: passkey.id, verifiedBy: 'email_code' },
    });
    expect(codeSignIn).toMatchObject({ user_id: sub, country: 'GB', details: { method: 'email_code' } });
    expect(issued).toMatchObject({ user_id: sub, client_id: p.keys.clientId });
    expect(passkeyUse).toMatchObject({
      user_id: sub,
      device_name: 'Chrome on Linux',
      ip: IN_RO,
      country: 'RO',
      details: { method: 'passkey', mpinId: passkey.id },
    });
    expect(revocation).toMatchObject({ user_id: sub, device_name: 'Chrome on Linux', details: { mpinId: passkey.id, reason: REVOCATION_REASON } });
    expect(denied).toMatchObject({ user_id: sub, country: 'RO', details: { reason: 'device_revoked' } });

    const { rows: devices } = await d.db.query<{ country: string }>('SELECT country FROM devices WHERE project_id = $1', [p.projectId]);
    expect(devices).toEqual([{ country: 'GB' }]);

    const usage = await usageOf(p.projectId);
    expect(usage.daily).toEqual({ issued: 1, oidc: 2, jwt: 2 });
    expect(usage.hourly).toEqual(usage.daily);
    // The code is exchanged by the application's server (here: loopback), so its ID tokens count where that is.
    expect(usage.byCountry).toEqual({ 'issued GB': 1, 'jwt ZZ': 2, 'oidc GB': 1, 'oidc RO': 1 });
  });

  it('refusals are events with no usage: disabled application, closed project, wrong redirect URI, wrong code, wrong secret, reused code', async () => {
    const p = await project();
    const email = uniqueEmail('refused');

    // A wrong code, then the right one ("Not now": no passkey).
    const browser = new Browser();
    const { request, page } = await page1(browser, p);
    const codePage = await submitEmail(browser, page, email);
    const right = t.mailer.lastCode(email);
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await browser.request(formAction(codePage), { form: { code: wrong } })).status).toBe(400);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: right } }));
    const back = await untilApp(browser, await browser.request(formAction(offer, 1), { form: { skip: '1' } }));
    const callback = new URL(back.location as string);
    await client.authorizationCodeGrant(p.config, callback, { pkceCodeVerifier: request.verifier });
    // The same code again: refused, no token.
    await expect(client.authorizationCodeGrant(p.config, callback, { pkceCodeVerifier: request.verifier })).rejects.toMatchObject({
      error: 'invalid_grant',
    });

    // A wrong secret at the token endpoint.
    const impostor = await client.discovery(new URL(p.config.serverMetadata().issuer), p.keys.clientId, 'not-the-secret', undefined, {
      execute: [client.allowInsecureRequests],
    });
    await expect(client.authorizationCodeGrant(impostor, callback, { pkceCodeVerifier: request.verifier })).rejects.toMatchObject({
      error: 'invalid_client',
    });

    // A redirect URI not registered exactly.
    const stray = new URL((await authorizationRequest(p)).url);
    stray.searchParams.set('redirect_uri', `${REDIRECT}/elsewhere`);
    expect((await new Browser().get(stray.href)).status).toBe(400);

    // A disabled application, then a closed project.
    const owner = await adminOf();
    await setEnabled(owner, p.appId, false);
    expect((await new Browser().get((await authorizationRequest(p)).url.href)).status).toBe(403);
    await setEnabled(owner, p.appId, true);
    await closeProject(owner, p.projectId);
    expect((await new Browser().get((await authorizationRequest(p)).url.href)).status).toBe(403);

    const events = await eventsOf(p.projectId);
    expect(summary(events)).toEqual([
      'oidc sign_in failed',
      'oidc sign_in success',
      'authcode code.issued success',
      'authcode code.exchanged success',
      'authcode code.exchanged failed',
      'authcode token failed',
      'oidc authorization_request failed',
      'oidc authorization_request disabled',
      'console project.close disabled',
      'oidc authorization_request disabled',
    ]);
    // Before they were a person, the address is named by its keyed pseudonym; after, by the person's id (docs/decisions/0046).
    const sub = await personOf(d.db, p.projectId, email);
    const anon = String(events[0]?.user_id);
    expect(anon).toMatch(/^anon-[\w-]{22}$/);
    expect(events.filter((e) => JSON.stringify(e).includes(email))).toEqual([]);
    expect(events[0]).toMatchObject({ details: { method: 'email_code', reason: 'wrong' } });
    expect(events[4]).toMatchObject({ user_id: sub, details: { reason: 'code_reused' } });
    // The audit log finds both by the address as the admin types it (any case), and shows the person's identity.
    const byAddress = await owner.api.get<AuditList>(
      `${apiPath(api.listAuditEvents, { project: p.projectId })}?userId=${encodeURIComponent(email.toUpperCase())}&direction=asc`,
    );
    expect(byAddress.body.list.map((e) => [e.userID, e.details['action'], e.eventStatus])).toEqual([
      [anon, 'sign_in', 'failed'],
      [email, 'passkey.offer.shown', 'success'],
      [email, 'passkey.offer.declined', 'success'],
      [email, 'sign_in', 'success'],
      [email, 'code.issued', 'success'],
      [email, 'code.exchanged', 'success'],
      [email, 'code.exchanged', 'failed'],
    ]);
    const bySub = await owner.api.get<AuditList>(`${apiPath(api.listAuditEvents, { project: p.projectId })}?userId=${sub}`);
    expect(bySub.body.total).toBe(6);
    const byPseudonym = await owner.api.get<AuditList>(`${apiPath(api.listAuditEvents, { project: p.projectId })}?userId=${anon}`);
    expect(byPseudonym.body.total).toBe(1);
    expect(events[5]).toMatchObject({ client_id: p.keys.clientId, details: { reason: 'invalid_client' } });
    expect(events[6]).toMatchObject({ client_id: p.keys.clientId, details: { error: 'invalid_redirect_uri' } });
    expect(events[7]).toMatchObject({ client_id: p.keys.clientId, user_id: null });
    expect((await usageOf(p.projectId)).daily).toEqual({ oidc: 1, jwt: 1 });
  });

  it('one client address adds at most its allowance of refusals to a project log; it is refused all the same', async () => {
    const p = await project();
    await setEnabled(await adminOf(), p.appId, false);
    const browser = new Browser();
    const url = (await authorizationRequest(p)).url.href;
    for (let i = 0; i < REFUSALS_PER_CLIENT + 5; i++) expect((await browser.get(url)).status).toBe(403);
    expect((await eventsOf(p.projectId)).filter((e) => e.scope === 'oidc')).toHaveLength(REFUSALS_PER_CLIENT);
    // Another client address still has its own.
    expect((await new Browser().get(url)).status).toBe(403);
    expect((await eventsOf(p.projectId)).filter((e) => e.scope === 'oidc')).toHaveLength(REFUSALS_PER_CLIENT + 1);
  });

  it('keeps monthly partitions ready from this month to MONTHS_AHEAD ahead', async () => {
    const now = t.clock.now();
    for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
      const { rows } = await d.db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [partitionName(month)]);
      expect(rows[0]?.found).toBe(partitionName(month));
    }
  });
});
