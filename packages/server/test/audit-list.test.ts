import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, REVOCATION_REASON, TOTAL_CAP, type AuditEvent, type AuditList, type AuditListParams, type DeviceList } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { auditTableFor } from '../src/modules/audit/audit-list.ts';
import { ensureEventPartitions, partitionName } from '../src/modules/audit/event-partitions.ts';
import { signedInAccount, uniqueEmail, useTestApp, type SignedIn } from './support/app.ts';
import { createPasskey, pageOptions, usePasskey, type CreationOptions, type RequestOptions } from './support/authenticator.ts';
import { Browser, type BrowserResponse } from './support/browser.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject, REDIRECT, storeAuditEvent, type StoredEvent } from './support/fixtures.ts';
import { authorizationRequest, projectWithRelyingParty, untilApp, type RelyingParty } from './support/relying-party.ts';
import { formAction, isPasskeyOffer, submitEmail } from './support/sign-in.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

const MINUTE = 60_000;
const CHROME_ON_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const monthStart = (at: Date, offset = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
const day = (at: Date) => at.toISOString().slice(0, 10);

// spec §7 "Audit" GET projects/{project}/audit, §2 "Audit list", §3 "Audit event", §4 result
// values, §9 default range, sort and scope options, §6 guard `audit`; issue 9; docs/decisions/0019.
describeEachDatabase('the audit log (GET projects/{project}/audit)', (t) => {
  const app = useTestApp(t, { listen: true, env: { PROJECTS_PER_ACCOUNT: '100' } });

  async function list(by: SignedIn, project: string, query: AuditListParams = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return by.api.get<AuditList & ErrorAnswer>(`${apiPath(api.listAuditEvents, { project })}?${qs}`);
  }
  async function listed(by: SignedIn, project: string, query: AuditListParams = {}): Promise<AuditList> {
    const res = await list(by, project, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const actions = (page: AuditList) => page.list.map((e) => String(e.details.action));

  /** This month's first page of ten, newest first, as the list reads it, and the statement that read its rows. */
  async function monthsFirstPage(project: string, filters: { userId?: string } = {}) {
    const statements: Array<{ sql: string; params: readonly unknown[] }> = [];
    const recording: Db = { ...t.db, query: (sql, params = []) => (statements.push({ sql, params }), t.db.query(sql, params)) };
    const range = { from: monthStart(now), to: monthStart(now, 1) };
    const page = await auditTableFor(app.services.secretBox).page(recording, project, range, {
      sort: 'createdAt',
      direction: 'desc',
      offset: 0,
      limit: 10,
      ...filters,
    });
    // The count and the page may be asked at once (ranged-list-page.ts): the page is the one that is not the count.
    const pageStatement = statements.find((s) => !s.sql.trimStart().startsWith('SELECT count(*)'));
    return { page, pageStatement: pageStatement as { sql: string; params: readonly unknown[] } };
  }

  const addEvent = (projectId: string, s: StoredEvent) => storeAuditEvent(t.db, projectId, { ...s, userAgent: CHROME_ON_LINUX });

  let admin: SignedIn;
  let projectId: string;
  let otherProject: string;
  let now: Date;
  let seeds: StoredEvent[];

  beforeAll(async () => {
    now = app.clock.now();
    await ensureEventPartitions(t.db, monthStart(now, -1));
    admin = await signedInAccount(app, t.db);
    projectId = await createProject(admin);
    otherProject = await createProject(admin);
    // Creating the projects wrote console events; these tests list their own, in a month of their own making.
    await t.db.query('DELETE FROM audit_events WHERE project_id IN ($1, $2)', [projectId, otherProject]);
    const at = (minutes: number) => new Date(monthStart(now).getTime() + minutes * MINUTE);
    seeds = [
      { action: 'e1', at: at(1), userId: 'alice@example.com', deviceName: 'Chrome on Linux', scope: 'oidc', result: 'created' },
      { action: 'e2', at: at(2), userId: 'alice@example.com', deviceName: 'Chrome on Linux', scope: 'oidc', result: 'success' },
      { action: 'e3', at: at(3), userId: 'bob@example.com', deviceName: null, scope: 'oidc', result: 'failed', country: 'NL' },
      { action: 'e4', at: at(4), userId: 'alice@example.com', deviceName: null, scope: 'authcode', result: 'success' },
      { action: 'e5', at: at(5), userId: null, deviceName: null, scope: 'oidc', result: 'disabled' },
      { action: 'e6', at: at(6), userId: 'admin@example.com', deviceName: 'chrome on Mac', scope: 'console', result: 'success' },
      { action: 'e7', at: at(7), userId: 'bob@example.com', deviceName: 'Safari on iPhone', scope: 'oidc', result: 'denied', country: 'NL' },
      { action: 'e8', at: at(8), userId: 'carol@example.com', deviceName: 'Edge 100%', scope: 'reg-code', result: 'error' },
    ];
    for (const s of seeds) await addEvent(projectId, s);
    // Last month, its last millisecond included; and another project's events in this month.
    await addEvent(projectId, { ...seeds[0]!, action: 'old-1', at: new Date(monthStart(now, -1).getTime() + MINUTE) });
    await addEvent(projectId, { ...seeds[1]!, action: 'old-2', at: new Date(monthStart(now).getTime() - 1) });
    await addEvent(otherProject, { ...seeds[0]!, action: 'elsewhere' });
  });

  it('answers the current month (UTC) by default, newest first, each event whole', async () => {
    const page = await listed(admin, projectId);
    expect(page.total).toBe(seeds.length);
    expect(page.totalCapped).toBe(false);
    expect(actions(page)).toEqual(seeds.map((s) => s.action).reverse());
    const first = page.list.at(-1) as AuditEvent;
    expect(first).toEqual<AuditEvent>({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/) as unknown as string,
      createdAt: seeds[0]!.at.toISOString(),
      userID: 'alice@example.com',
      deviceName: 'Chrome on Linux',
      scope: 'oidc',
      eventStatus: 'created',
      ip: '81.2.69.160',
      country: 'GB',
      clientId: 'client-1',
      userAgent: CHROME_ON_LINUX,
      details: { action: 'e1' },
    });
    expect(actions(await listed(admin, otherProject))).toEqual(['elsewhere']);
  });

  it('answers the range asked for, across months: a day counts to its end, a time to the end of its second', async () => {
    const from = day(monthStart(now, -1));
    const lastDay = day(new Date(monthStart(now).getTime() - 1));
    expect(actions(await listed(admin, projectId, { fromDate: from, toDate: lastDay }))).toEqual(['old-2', 'old-1']);
    expect(actions(await listed(admin, projectId, { fromDate: `${from}T00:00:00Z`, toDate: `${lastDay}T23:59:59Z` }))).toEqual(['old-2', 'old-1']);
    expect(actions(await listed(admin, projectId, { fromDate: from, toDate: `${lastDay}T23:59:58Z` }))).toEqual(['old-1']);
    const both = await listed(admin, projectId, { fromDate: from, limit: 100 });
    expect(actions(both)).toEqual([...seeds.map((s) => s.action).reverse(), 'old-2', 'old-1']);
    // A month with no partition yet is simply empty.
    expect((await listed(admin, projectId, { fromDate: '2001-01-01', toDate: '2001-12-31' })).list).toEqual([]);
  });

  it('filters by userId (the whole identity, any case), deviceName (starting with, any case), scope, result and country', async () => {
    const cases: Array<[AuditListParams, string[]]> = [
      [{ userId: 'alice@example.com' }, ['e4', 'e2', 'e1']],
      [{ userId: ' Alice@EXAMPLE.com ' }, ['e4', 'e2', 'e1']],
      [{ userId: 'alice' }, []],
      [{ userId: 'nobody@example.com' }, []],
      [{ deviceName: 'chrome' }, ['e6', 'e2', 'e1']],
      [{ deviceName: 'CHROME ON L' }, ['e2', 'e1']],
      [{ deviceName: 'on Linux' }, []],
      [{ deviceName: 'Edge 100%' }, ['e8']],
      [{ deviceName: '%' }, []],
      [{ scope: 'oidc' }, ['e7', 'e5', 'e3', 'e2', 'e1']],
      [{ scope: 'console' }, ['e6']],
      [{ scope: 'dvs-auth' }, []],
      [{ result: 'success' }, ['e6', 'e4', 'e2']],
      [{ result: 'denied' }, ['e7']],
      [{ userId: 'alice@example.com', scope: 'oidc', result: 'success' }, ['e2']],
      [{ userId: 'bob@example.com', deviceName: 'safari', result: 'denied', scope: 'oidc' }, ['e7']],
      [{ userId: '', deviceName: '' }, seeds.map((s) => s.action).reverse()],
      [{ country: 'NL' }, ['e7', 'e3']],
      [{ country: 'nl', result: 'failed' }, ['e3']],
      [{ country: 'GB', scope: 'oidc' }, ['e5', 'e2', 'e1']],
      [{ country: 'US' }, []],
    ];
    for (const [query, expected] of cases) {
      const page = await listed(admin, projectId, query);
      expect(actions(page), JSON.stringify(query)).toEqual(expected);
      expect(page.total, JSON.stringify(query)).toBe(expected.length);
    }
  });

  it('sorts by date and by each column both ways; ties in date order, in the same direction; no value last ascending', async () => {
    type Key = (s: StoredEvent) => string | number | null;
    const keys: Record<string, Key> = {
      createdAt: (s) => s.at.getTime(),
      userId: (s) => s.userId,
      deviceName: (s) => s.deviceName?.toLowerCase() ?? null,
      scope: (s) => s.scope,
      result: (s) => s.result,
    };
    const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : (a as string) < (b as string) ? -1 : 1);
    for (const [sort, key] of Object.entries(keys)) {
      const ascending = [...seeds].sort((a, b) => compare(key(a), key(b)) || a.at.getTime() - b.at.getTime()).map((s) => s.action);
      expect(actions(await listed(admin, projectId, { sort: sort as never, direction: 'asc' })), `${sort} asc`).toEqual(ascending);
      expect(actions(await listed(admin, projectId, { sort: sort as never, direction: 'desc' })), `${sort} desc`).toEqual(ascending.reverse());
    }
  });

  it('reads a page back from the range’s monthly partitions only (docs/decisions/0019 addendum): no other month is planned', async () => {
    // The page's statement as the list runs it, on a database with partitions from last month to three ahead.
    const range = { from: monthStart(now), to: monthStart(now, 1) };
    const { page, pageStatement } = await monthsFirstPage(projectId);
    expect(page.list.length).toBeGreaterThan(0);
    const { rows } = await t.db.query<Record<string, unknown>>(`EXPLAIN ${pageStatement.sql}`, pageStatement.params);
    const planned = new Set(JSON.stringify(rows).match(/audit_events_\d{6}/g));
    expect([...planned]).toEqual([partitionName(range.from)]);
  });

  it('pages by offset and limit: the last page is partial, past the end is empty with the same total', async () => {
    const all = seeds.map((s) => s.action).reverse();
    expect(actions(await listed(admin, projectId, { limit: 10, offset: 5 }))).toEqual(all.slice(5));
    const beyond = await listed(admin, projectId, { offset: 8 });
    expect(beyond).toEqual({ total: seeds.length, totalCapped: false, list: [], nextCursor: null });
    // A full page that is the last one: no cursor to a next page.
    const full = await listed(admin, projectId, { limit: 5, offset: 0, scope: 'oidc' });
    expect(full.list).toHaveLength(5);
    expect(full.nextCursor).toBeNull();
    expect((await listed(admin, projectId, { limit: 4, offset: 0, scope: 'oidc' })).nextCursor).not.toBeNull();
  });

  describe('at more than 10,000 events', () => {
    let bulk: string;
    const COUNT = TOTAL_CAP + 21;
    beforeAll(async () => {
      bulk = await createProject(admin);
      await t.db.query('DELETE FROM audit_events WHERE project_id = $1', [bulk]);
      // One statement: event n at n seconds into the month, ids in the same order; every 500th a failure.
      await t.db.query(
        `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, details)
         SELECT $1, $2::timestamptz + g * interval '1 second', lpad(to_hex(g), 32, '0')::uuid,
                'user' || (g % 3) || '@example.com', 'Chrome on Linux', CASE WHEN g % 2 = 0 THEN 'oidc' ELSE 'authcode' END,
                CASE WHEN g % 500 = 0 THEN 'failed' ELSE 'success' END, jsonb_build_object('action', 'bulk-' || g)
           FROM generate_series(1, ${COUNT}) AS g`,
        [bulk, monthStart(now)],
      );
    });

    it('counts the total up to 10,000 and says there are more; a narrow filter is counted exactly', async () => {
      const page = await listed(admin, bulk);
      expect(page).toMatchObject({ total: TOTAL_CAP, totalCapped: true });
      expect(actions(page)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-${COUNT - i}`));
      const failed = await listed(admin, bulk, { result: 'failed' });
      expect(failed).toMatchObject({ total: Math.floor(COUNT / 500), totalCapped: false });
      expect((await listed(admin, bulk, { result: 'error' })).total).toBe(0);
    });

    it('answers the last pages beyond the 10,000th, by offset and by cursor alike', async () => {
      const tail = await listed(admin, bulk, { offset: 10_000, limit: 100, direction: 'asc' });
      expect(actions(tail)).toEqual(Array.from({ length: 21 }, (_, i) => `bulk-${10_001 + i}`));
      for (const sort of ['createdAt', 'scope', 'result'] as const) {
        const query = { sort, direction: 'desc' as const, limit: 100 };
        const before = await listed(admin, bulk, { ...query, offset: 9_900 });
        expect(before.nextCursor, sort).not.toBeNull();
        const byCursor = await listed(admin, bulk, { ...query, offset: 10_000, cursor: before.nextCursor as string });
        expect(actions(byCursor), sort).toEqual(actions(await listed(admin, bulk, { ...query, offset: 10_000 })));
        expect(byCursor.list, sort).toHaveLength(21);
      }
      // userID and device name can be empty: those sorts page by offset and answer no cursor.
      expect((await listed(admin, bulk, { sort: 'userId' })).nextCursor).toBeNull();
    });

    it('pages one person’s events in time order by reading each of their ids in order, not by sorting every match', async () => {
      // user1@example.com: every third event, 3,340 of them (under the cap, so its total is exact).
      const theirs = Array.from({ length: COUNT }, (_, i) => i + 1).filter((g) => g % 3 === 1);
      const query = { userId: 'User1@example.com', limit: 100 };
      const first = await listed(admin, bulk, query);
      expect(first).toMatchObject({ total: theirs.length, totalCapped: false });
      expect(actions(first)).toEqual(
        theirs
          .slice(-100)
          .reverse()
          .map((g) => `bulk-${g}`),
      );
      const deep = await listed(admin, bulk, { ...query, offset: 3_300, direction: 'asc' });
      expect(actions(deep)).toEqual(theirs.slice(3_300).map((g) => `bulk-${g}`));
      const before = await listed(admin, bulk, { ...query, offset: 3_200 });
      const byCursor = await listed(admin, bulk, { ...query, offset: 3_300, cursor: before.nextCursor as string });
      expect(actions(byCursor)).toEqual(
        theirs
          .slice(0, theirs.length - 3_300)
          .reverse()
          .map((g) => `bulk-${g}`),
      );

      // The first page's statement as run: its index scans read a page's worth of entries, not all 3,340.
      const { page, pageStatement } = await monthsFirstPage(bulk, { userId: 'user1@example.com' });
      expect(page.list).toHaveLength(10);
      const { rows } = await t.db.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${pageStatement.sql}`, pageStatement.params);
      const plan = rows[0]?.['QUERY PLAN'];
      const scanned = (node: Record<string, unknown>): number =>
        (String(node['Node Type']).includes('Scan') ? Number(node['Actual Rows']) * Number(node['Actual Loops']) : 0) +
        ((node.Plans as Record<string, unknown>[] | undefined) ?? []).reduce((sum, child) => sum + scanned(child), 0);
      const root = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: Record<string, unknown> }>;
      expect(scanned(root[0]!.Plan)).toBeLessThan(100);
    });
  });

  // Issue 9: what the issuer writes is what the log shows (docs/decisions/0014 for what each event is).
  it('lists the events of a real registration, sign-in, revocation and refused sign-in, and the device they made', async () => {
    const p: RelyingParty = await projectWithRelyingParty(app, admin);
    const email = uniqueEmail('audited');
    const browser = new Browser({ clientIp: '81.2.69.160' });
    const page1 = async (b: Browser) => {
      const request = await authorizationRequest(p);
      return { request, page: (await b.follow(await b.get(request.url.href))).at(-1) as BrowserResponse };
    };
    // A new user: address, emailed code, "Create a passkey", back to the app, code exchanged.
    const first = await page1(browser);
    const codePage = await submitEmail(browser, first.page, email);
    const offer = await untilApp(browser, await browser.request(formAction(codePage), { form: { code: app.mailer.lastCode(email) } }));
    expect(isPasskeyOffer(offer), offer.text).toBe(true);
    const { passkey, response } = createPasskey(pageOptions<CreationOptions>(offer.text), app.baseUrl);
    const back = await untilApp(
      browser,
      await browser.request(formAction(offer), { form: { response: JSON.stringify(response) }, headers: { 'user-agent': CHROME_ON_LINUX } }),
    );
    expect(back.location ?? '').toMatch(new RegExp(`^${REDIRECT}\\?`));
    await client.authorizationCodeGrant(p.config, new URL(back.location as string), { pkceCodeVerifier: first.request.verifier });

    const devices = await admin.api.get<DeviceList>(`${apiPath(api.listDevices, { project: p.projectId })}?userId=${encodeURIComponent(email)}`);
    expect(devices.body.list).toEqual([
      expect.objectContaining({ mpinId: passkey.id, userId: email, deviceName: 'Chrome on Linux', country: 'GB', revoked: false }),
    ]);

    const revoked = await admin.api.post(apiPath(api.revokeDevice, { project: p.projectId, mpinId: passkey.id }), { reason: REVOCATION_REASON });
    expect(revoked.status).toBe(200);
    // The revoked passkey is refused at its next sign-in.
    const later = new Browser();
    const again = await page1(later);
    const passkeyPage = await submitEmail(later, again.page, email);
    if (passkeyPage.status === 200) {
      const answer = usePasskey(passkey, pageOptions<RequestOptions>(passkeyPage.text), app.baseUrl);
      expect((await later.request(formAction(passkeyPage), { form: { response: JSON.stringify(answer) } })).status).toBe(403);
    } else {
      expect(passkeyPage.status).toBe(403);
    }

    const log = await listed(admin, p.projectId, { userId: email, limit: 100 });
    expect(log.list.map((e) => `${e.scope} ${String(e.details.action)} ${e.eventStatus}`)).toEqual([
      'oidc sign_in denied',
      'console device.revoke success',
      'authcode code.exchanged success',
      'authcode code.issued success',
      'oidc sign_in success',
      'oidc device.register created',
      // docs/decisions/0050: the passkey offer after the emailed code.
      'oidc passkey.offer.shown success',
    ]);
    expect(log.list[1]).toMatchObject({ deviceName: 'Chrome on Linux', details: { mpinId: passkey.id, reason: REVOCATION_REASON } });
    expect(log.list.at(-2)).toMatchObject({ userID: email, ip: '81.2.69.160', country: 'GB', clientId: p.keys.clientId, userAgent: CHROME_ON_LINUX });
    expect(actions(await listed(admin, p.projectId, { userId: email, result: 'denied' }))).toEqual(['sign_in']);
    expect(actions(await listed(admin, p.projectId, { scope: 'console', deviceName: 'chrome' }))).toEqual(['device.revoke']);
    // The dashboard's enrollment funnel opens the log by action (docs/decisions/0050): the whole action, as stored.
    expect(actions(await listed(admin, p.projectId, { action: 'passkey.offer.shown' }))).toEqual(['passkey.offer.shown']);
    expect(actions(await listed(admin, p.projectId, { action: 'sign_in', result: 'success' }))).toEqual(['sign_in']);
    expect(actions(await listed(admin, p.projectId, { action: 'passkey.offer' }))).toEqual([]);
    const revokedDevice = await admin.api.get<DeviceList>(`${apiPath(api.listDevices, { project: p.projectId })}?revoked=true`);
    expect(revokedDevice.body.list.map((d) => d.mpinId)).toEqual([passkey.id]);
  });

  describe('guard: audit on the project (spec §6)', () => {
    it('lets holders of cst:{p}:audit or cst:{p}:* read the log, also while the project is closed', async () => {
      const viewer = await signedInAccount(app, t.db, [`cst:${projectId}:audit`]);
      expect((await listed(viewer, projectId)).total).toBe(seeds.length);
      const closed = await createProject(admin);
      await closeProject(admin, closed);
      // Closing is itself in the log.
      expect(actions(await listed(admin, closed, { scope: 'console', result: 'disabled' }))).toEqual(['project.close']);
    });

    it('answers 403 to an account with another permission on the project, and 404 about another project or none', async () => {
      for (const permission of ['usage', 'revocation', 'apps', 'info']) {
        const other = await signedInAccount(app, t.db, [`cst:${projectId}:${permission}`]);
        const res = await list(other, projectId);
        expect(res.status, permission).toBe(403);
        expect(res.body.error).toBe('forbidden');
      }
      expect((await list(await signedInAccount(app, t.db, ['glb::usage']), projectId)).status).toBe(403);
      const outsider = await signedInAccount(app, t.db, [`cst:${otherProject}:audit`]);
      for (const project of [projectId, 'no-such-project']) {
        const res = await list(outsider, project);
        expect(res.status, project).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: 'Not found' });
      }
      expect((await app.app.inject({ method: 'GET', url: apiPath(api.listAuditEvents, { project: projectId }) })).statusCode).toBe(401);
    });
  });

  describe('bad input is a 400 naming the field and the message', () => {
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['a day that does not exist', { toDate: '2025-04-31' }, 'toDate', 'validation.invalid_date'],
      ['a time with an impossible hour', { fromDate: '2025-01-01T24:00:00Z' }, 'fromDate', 'validation.invalid_date'],
      ['the end before the start', { fromDate: '2025-03-02T00:00:00Z', toDate: '2025-03-01T23:59:59Z' }, 'toDate', 'validation.date_order'],
      ['more than 366 days', { fromDate: '2023-01-01', toDate: '2024-12-31' }, 'fromDate', 'validation.date_range_too_long'],
      ['from long ago to the default end', { fromDate: '1999-01-01' }, 'fromDate', 'validation.date_range_too_long'],
      ['a scope not in the options', { scope: 'admin' }, 'scope', 'validation.invalid_value'],
      ['a result not in spec §4', { result: 'ok' }, 'result', 'validation.invalid_value'],
      ['a country that is not a two-letter code', { country: 'NLD' }, 'country', 'validation.invalid_value'],
      ['an unknown sort', { sort: 'ip' }, 'sort', 'validation.invalid_value'],
      ['an unknown direction', { direction: 'up' }, 'direction', 'validation.invalid_value'],
      ['an offset past 1,000,000', { offset: '1000001' }, 'offset', 'validation.out_of_range'],
    ];
    it.each(cases)('%s', async (_label, query, field, code) => {
      const res = await list(admin, projectId, query as AuditListParams);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, code }));
    });
  });
});
