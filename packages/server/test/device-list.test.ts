import { beforeAll, describe, expect, it } from 'vitest';
import { api, REVOCATION_REASON, TOTAL_CAP, type DeviceIdentity, type DeviceList, type DeviceListParams } from '@latchkey/domain';
import { userIdForEmail } from '../src/people/end-users.repository.ts';
import { signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

const MINUTE = 60_000;
const monthStart = (at: Date, offset = 0) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
const day = (at: Date) => at.toISOString().slice(0, 10);

// spec §7 "Devices" GET projects/{project}/mpinids, §2 "Devices list", §9 default range and sort,
// §6 guard `revocation`; issue 9; docs/decisions/0019.
describeEachDatabase('the devices list (GET projects/{project}/mpinids)', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  const listPath = (project: string) => apiPath(api.listDevices, { project });
  async function list(by: SignedIn, project: string, query: DeviceListParams = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    return by.api.get<DeviceList & ErrorAnswer>(`${listPath(project)}?${qs}`);
  }
  async function listed(by: SignedIn, project: string, query: DeviceListParams = {}): Promise<DeviceList> {
    const res = await list(by, project, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
  const ids = (page: DeviceList) => page.list.map((d) => d.mpinId);

  interface Seed {
    id: string;
    email: string;
    name: string;
    ip: string | null;
    at: Date;
    revoked?: boolean;
  }
  /** A device as the issuer stores a registration (the owner by their verified address). */
  async function addDevice(projectId: string, s: Seed): Promise<void> {
    const userId = await userIdForEmail(t.db, { projectId, email: s.email, now: s.at });
    await t.db.query(
      `INSERT INTO devices (project_id, id, user_id, public_key, name, ip, country, created_at, last_used_at, revoked, revoked_at, revoke_reason)
       VALUES ($1, $2, $3, 'AQID', $4, $5, 'GB', $6, $6, $7, $8, $9)`,
      [projectId, s.id, userId, s.name, s.ip, s.at, s.revoked ?? false, s.revoked ? s.at : null, s.revoked ? REVOCATION_REASON : null],
    );
  }

  let admin: SignedIn;
  let projectId: string;
  let otherProject: string;
  let now: Date;
  // This month's devices of the project, in the order they were created.
  let seeds: Seed[];
  let lastMonth: Seed[];

  beforeAll(async () => {
    now = app.clock.now();
    admin = await signedInAccount(app, t.db);
    projectId = await createProject(admin);
    otherProject = await createProject(admin);
    const at = (minutes: number) => new Date(monthStart(now).getTime() + minutes * MINUTE);
    seeds = [
      { id: 'dev-a1', email: 'alice@example.com', name: 'Chrome on Linux', ip: '10.0.0.1', at: at(1) },
      { id: 'dev-b1', email: 'bob@example.com', name: 'Safari on iPhone', ip: '192.168.1.7', at: at(2) },
      { id: 'dev-a2', email: 'alice@example.com', name: 'chrome on Mac', ip: '10.0.1.2', at: at(3), revoked: true },
      { id: 'dev-c1', email: 'carol@example.com', name: 'Firefox on Windows', ip: null, at: at(4) },
      { id: 'dev-b2', email: 'bob@example.com', name: 'Edge on Windows', ip: '2001:db8::5', at: at(5) },
      { id: 'dev-a3', email: 'alice@example.com', name: 'Safari on Mac', ip: '10.0.0.3', at: at(6), revoked: true },
      { id: 'dev-d1', email: 'dave_x@example.com', name: 'Chrome 100%', ip: '10.1.0.1', at: at(7) },
    ];
    for (const s of seeds) await addDevice(projectId, s);
    const before = monthStart(now, -1);
    lastMonth = [
      { id: 'old-a', email: 'alice@example.com', name: 'Chrome on Linux', ip: '10.0.0.9', at: new Date(before.getTime() + MINUTE) },
      // The last instant of last month: inside a range that ends with that day.
      { id: 'old-b', email: 'bob@example.com', name: 'Opera on Linux', ip: '10.0.0.8', at: new Date(monthStart(now).getTime() - 1) },
    ];
    for (const s of lastMonth) await addDevice(projectId, s);
    // Another project's devices, in the same month and with the same owners' addresses.
    await addDevice(otherProject, { id: 'dev-a1', email: 'alice@example.com', name: 'Chrome on Linux', ip: '10.0.0.1', at: seeds[0]!.at });
    await addDevice(otherProject, { id: 'elsewhere', email: 'alice@example.com', name: 'Chrome on Linux', ip: '10.0.0.1', at: seeds[1]!.at });
  });

  it('answers the current month (UTC) by default, newest first, with every field of a device identity', async () => {
    const page = await listed(admin, projectId);
    expect(page.total).toBe(seeds.length);
    expect(page.totalCapped).toBe(false);
    expect(ids(page)).toEqual(seeds.map((s) => s.id).reverse());
    const revoked = page.list.find((d) => d.mpinId === 'dev-a2');
    expect(revoked).toEqual<DeviceIdentity>({
      mpinId: 'dev-a2',
      userId: 'alice@example.com',
      deviceName: 'chrome on Mac',
      ip: '10.0.1.2',
      country: 'GB',
      createdAt: seeds[2]!.at.toISOString(),
      lastUsedAt: seeds[2]!.at.toISOString(),
      revoked: true,
      revokedAt: seeds[2]!.at.toISOString(),
    });
    expect(page.list.find((d) => d.mpinId === 'dev-c1')?.ip).toBeNull();
    // Another project's devices are not in it, whatever they share.
    expect(ids(await listed(admin, otherProject))).toEqual(['elsewhere', 'dev-a1']);
  });

  it('answers the range asked for: a day counts to its end, a time (T23:59:59Z) to the end of its second', async () => {
    const from = day(monthStart(now, -1));
    const lastDay = day(new Date(monthStart(now).getTime() - 1));
    for (const toDate of [lastDay, `${lastDay}T23:59:59Z`]) {
      const page = await listed(admin, projectId, { fromDate: `${from}T00:00:00Z`, toDate });
      expect(ids(page), toDate).toEqual(['old-b', 'old-a']);
    }
    expect(ids(await listed(admin, projectId, { fromDate: from, toDate: `${lastDay}T23:59:58Z` }))).toEqual(['old-a']);
    // Both months at once; fromDate alone runs to the end of the current month.
    expect((await listed(admin, projectId, { fromDate: from })).total).toBe(seeds.length + lastMonth.length);
    // toDate alone starts at the beginning of its month.
    expect(ids(await listed(admin, projectId, { toDate: lastDay }))).toEqual(['old-b', 'old-a']);
  });

  it('filters by userId (the whole identity, any case), deviceName and ip (starting with; the name in any case), revoked', async () => {
    const cases: Array<[DeviceListParams, string[]]> = [
      [{ userId: 'alice@example.com' }, ['dev-a3', 'dev-a2', 'dev-a1']],
      [{ userId: '  ALICE@Example.com ' }, ['dev-a3', 'dev-a2', 'dev-a1']],
      [{ userId: 'alice' }, []],
      [{ userId: 'nobody@example.com' }, []],
      [{ userId: '' }, seeds.map((s) => s.id).reverse()],
      [{ deviceName: 'chrome' }, ['dev-d1', 'dev-a2', 'dev-a1']],
      [{ deviceName: 'CHROME ON' }, ['dev-a2', 'dev-a1']],
      [{ deviceName: 'on Windows' }, []],
      // LIKE's wildcards are plain characters here.
      [{ deviceName: 'Chrome 100%' }, ['dev-d1']],
      [{ deviceName: '%' }, []],
      [{ deviceName: '_' }, []],
      [{ ip: '10.0.' }, ['dev-a3', 'dev-a2', 'dev-a1']],
      [{ ip: '10.0.0' }, ['dev-a3', 'dev-a1']],
      [{ ip: '2001:DB8' }, []],
      [{ ip: '2001:db8' }, ['dev-b2']],
      [{ revoked: 'true' }, ['dev-a3', 'dev-a2']],
      [{ revoked: 'false' }, ['dev-d1', 'dev-b2', 'dev-c1', 'dev-b1', 'dev-a1']],
      [{ userId: 'alice@example.com', revoked: 'false' }, ['dev-a1']],
      [{ userId: 'bob@example.com', deviceName: 'edge', ip: '2001' }, ['dev-b2']],
    ];
    for (const [query, expected] of cases) {
      const page = await listed(admin, projectId, query);
      expect(ids(page), JSON.stringify(query)).toEqual(expected);
      expect(page.total, JSON.stringify(query)).toBe(expected.length);
    }
  });

  it('sorts by each column both ways; ties in created-at order, in the same direction', async () => {
    type Key = (s: Seed) => string | number | boolean | null;
    const keys: Record<string, Key> = {
      createdAt: (s) => s.at.getTime(),
      userId: (s) => s.email,
      deviceName: (s) => s.name.toLowerCase(),
      ip: (s) => s.ip,
      revoked: (s) => s.revoked ?? false,
    };
    const compare = (a: unknown, b: unknown) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : (a as string) < (b as string) ? -1 : 1);
    for (const [sort, key] of Object.entries(keys)) {
      const ascending = [...seeds].sort((a, b) => compare(key(a), key(b)) || a.at.getTime() - b.at.getTime());
      const asc = await listed(admin, projectId, { sort: sort as never, direction: 'asc' });
      expect(ids(asc), `${sort} asc`).toEqual(ascending.map((s) => s.id));
      const desc = await listed(admin, projectId, { sort: sort as never, direction: 'desc' });
      expect(ids(desc), `${sort} desc`).toEqual(ascending.map((s) => s.id).reverse());
    }
  });

  it('pages by offset and limit: the last page is partial, past the end is empty with the same total', async () => {
    const all = seeds.map((s) => s.id).reverse();
    const first = await listed(admin, projectId, { limit: 10, offset: 0 });
    expect(ids(first)).toEqual(all);
    const pages: string[] = [];
    for (let offset = 0; offset < all.length; offset += 3) {
      const page = await listed(admin, projectId, { limit: 10, offset });
      pages.push(...ids(page).slice(0, 3));
    }
    expect(pages).toEqual(all);
    const last = await listed(admin, projectId, { offset: 6 });
    expect(ids(last)).toEqual([all[6]]);
    expect(last.nextCursor).toBeNull();
    const beyond = await listed(admin, projectId, { offset: 50 });
    expect(beyond).toEqual({ total: seeds.length, totalCapped: false, list: [], nextCursor: null });
  });

  it('revoked through the API, a device lists as revoked', async () => {
    const res = await admin.api.post(apiPath(api.revokeDevice, { project: projectId, mpinId: 'dev-c1' }), { reason: REVOCATION_REASON });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const page = await listed(admin, projectId, { revoked: 'true' });
    // Still in the order they were created: the list is about registrations.
    expect(ids(page)).toEqual(['dev-a3', 'dev-c1', 'dev-a2']);
    const revoked = page.list[1] as DeviceIdentity;
    expect(revoked.revoked).toBe(true);
    expect(Date.parse(revoked.revokedAt as string)).toBeGreaterThan(0);
    await t.db.query(`UPDATE devices SET revoked = false, revoked_at = NULL, revoke_reason = NULL WHERE project_id = $1 AND id = 'dev-c1'`, [
      projectId,
    ]);
  });

  describe('at more than 10,000 devices', () => {
    let bulk: string;
    const COUNT = TOTAL_CAP + 55;
    beforeAll(async () => {
      bulk = await createProject(admin);
      const owner = await userIdForEmail(t.db, { projectId: bulk, email: 'bulk@example.com', now });
      const other = await userIdForEmail(t.db, { projectId: bulk, email: 'few@example.com', now });
      // One statement: device n is created n seconds into the month; every 1,000th belongs to few@.
      await t.db.query(
        `INSERT INTO devices (project_id, id, user_id, public_key, name, ip, created_at, revoked)
         SELECT $1, 'bulk-' || lpad(g::text, 6, '0'), CASE WHEN g % 1000 = 0 THEN $3 ELSE $2 END, 'AQID',
                CASE WHEN g % 2 = 0 THEN 'Chrome on Linux' ELSE 'Firefox on Linux' END, '10.' || (g % 200) || '.0.1',
                $4::timestamptz + g * interval '1 second', g % 7 = 0
           FROM generate_series(1, ${COUNT}) AS g`,
        [bulk, owner, other, monthStart(now)],
      );
    });
    const bulkId = (n: number) => `bulk-${String(n).padStart(6, '0')}`;

    it('counts the total up to 10,000 and says there are more; a narrow filter is counted exactly', async () => {
      const page = await listed(admin, bulk);
      expect(page.total).toBe(TOTAL_CAP);
      expect(page.totalCapped).toBe(true);
      expect(ids(page)).toEqual(Array.from({ length: 10 }, (_, i) => bulkId(COUNT - i)));
      const few = await listed(admin, bulk, { userId: 'few@example.com' });
      expect(few.total).toBe(Math.floor(COUNT / 1000));
      expect(few.totalCapped).toBe(false);
      const revoked = await listed(admin, bulk, { revoked: 'true', deviceName: 'chrome' });
      expect(revoked.total).toBe(Math.floor(COUNT / 14));
      expect(revoked.totalCapped).toBe(false);
    });

    it('sorts by owner the same whether a filter matches more than a thousand devices (owners walked in order) or fewer (matches sorted)', async () => {
      // bulk@ sorts before few@; within an owner, by creation. Revoked: every 7th (1,436, walked);
      // revoked Chrome: every 14th (718, sorted).
      const inOwnerOrder = (keep: (g: number) => boolean) => {
        const all = Array.from({ length: COUNT }, (_, i) => i + 1).filter(keep);
        return [...all.filter((g) => g % 1000 !== 0), ...all.filter((g) => g % 1000 === 0)].map(bulkId);
      };
      for (const [filter, keep] of [
        [{ revoked: 'true' }, (g: number) => g % 7 === 0],
        [{ revoked: 'true', deviceName: 'chrome' }, (g: number) => g % 14 === 0],
      ] as const) {
        const expected = inOwnerOrder(keep);
        const head = await listed(admin, bulk, { ...filter, sort: 'userId', direction: 'asc', limit: 100 });
        expect(head.total).toBe(expected.length);
        expect(ids(head)).toEqual(expected.slice(0, 100));
        const tail = await listed(admin, bulk, { ...filter, sort: 'userId', direction: 'asc', limit: 100, offset: expected.length - 60 });
        expect(ids(tail)).toEqual(expected.slice(-60));
        const last = await listed(admin, bulk, { ...filter, sort: 'userId', direction: 'desc', limit: 50 });
        expect(ids(last)).toEqual(expected.slice(-50).reverse());
        const next = await listed(admin, bulk, {
          ...filter,
          sort: 'userId',
          direction: 'desc',
          limit: 50,
          offset: 50,
          cursor: last.nextCursor as string,
        });
        expect(ids(next)).toEqual(expected.slice(-100, -50).reverse());
      }
    });

    it('answers pages beyond the 10,000th row, up to the last', async () => {
      const deep = await listed(admin, bulk, { offset: 10_000, limit: 100, sort: 'createdAt', direction: 'asc' });
      expect(ids(deep)).toEqual(Array.from({ length: 55 }, (_, i) => bulkId(10_001 + i)));
      expect(deep.nextCursor).toBeNull();
      expect((await listed(admin, bulk, { offset: COUNT })).list).toEqual([]);
    });

    it('the next page by its cursor is the page by offset; a cursor of another query or offset is ignored', async () => {
      for (const sort of ['createdAt', 'userId', 'deviceName', 'revoked'] as const) {
        for (const direction of ['asc', 'desc'] as const) {
          const query = { sort, direction, limit: 50 };
          let page = await listed(admin, bulk, { ...query, offset: 9_900 });
          for (let offset = 9_950; offset <= 10_000; offset += 50) {
            expect(page.nextCursor, `${sort} ${direction} ${offset}`).not.toBeNull();
            const byCursor = await listed(admin, bulk, { ...query, offset, cursor: page.nextCursor as string });
            const byOffset = await listed(admin, bulk, { ...query, offset });
            expect(ids(byCursor), `${sort} ${direction} ${offset}`).toEqual(ids(byOffset));
            expect(byCursor.list).toHaveLength(50);
            page = byCursor;
          }
        }
      }
      const first = await listed(admin, bulk, { limit: 10 });
      const second = ids(await listed(admin, bulk, { limit: 10, offset: 10 }));
      const cursor = first.nextCursor as string;
      // The offset decides: a cursor sent with another offset, another filter or sort, or broken, changes nothing.
      expect(ids(await listed(admin, bulk, { limit: 10, offset: 20, cursor }))).toEqual(ids(await listed(admin, bulk, { limit: 10, offset: 20 })));
      expect(ids(await listed(admin, bulk, { limit: 10, offset: 10, cursor, revoked: 'false' }))).toEqual(
        ids(await listed(admin, bulk, { limit: 10, offset: 10, revoked: 'false' })),
      );
      expect(ids(await listed(admin, bulk, { limit: 10, offset: 10, cursor, direction: 'asc' }))).toEqual(
        ids(await listed(admin, bulk, { limit: 10, offset: 10, direction: 'asc' })),
      );
      const forged = Buffer.from(JSON.stringify({ o: 10, f: 'x', k: ["'; DROP TABLE devices; --", 'x'] })).toString('base64url');
      for (const bad of ['garbage', forged, 'e30', Buffer.from('[]').toString('base64url')]) {
        expect(ids(await listed(admin, bulk, { limit: 10, offset: 10, cursor: bad })), bad).toEqual(second);
      }
      // The ip sort can hold no value (null): it pages by offset and answers no cursor.
      expect((await listed(admin, bulk, { sort: 'ip', limit: 10 })).nextCursor).toBeNull();
    });
  });

  describe('guard: revocation on the project (spec §6)', () => {
    it('lets holders of cst:{p}:revocation or cst:{p}:* list, also while the project is closed', async () => {
      const viewer = await signedInAccount(app, t.db, [`cst:${projectId}:revocation`]);
      expect((await listed(viewer, projectId)).total).toBe(seeds.length);
      const closed = await createProject(admin);
      await addDevice(closed, { id: 'in-closed', email: 'erin@example.com', name: 'Chrome on Linux', ip: '10.0.0.1', at: now });
      await closeProject(admin, closed);
      expect(ids(await listed(admin, closed))).toEqual(['in-closed']);
    });

    it('answers 403 to an account with another permission on the project, and 404 about another project or none', async () => {
      for (const permission of ['usage', 'audit', 'apps', 'info']) {
        const other = await signedInAccount(app, t.db, [`cst:${projectId}:${permission}`]);
        const res = await list(other, projectId);
        expect(res.status, permission).toBe(403);
        expect(res.body.error).toBe('forbidden');
      }
      // Global permissions do not include device revocation (spec §6 lists none for it).
      expect((await list(await signedInAccount(app, t.db, ['glb::apps']), projectId)).status).toBe(403);
      const outsider = await signedInAccount(app, t.db, [`cst:${otherProject}:revocation`]);
      for (const project of [projectId, 'no-such-project']) {
        const res = await list(outsider, project);
        expect(res.status, project).toBe(404);
        expect(res.body).toEqual({ error: 'not_found', message: 'Not found' });
      }
      const anonymous = await app.app.inject({ method: 'GET', url: listPath(projectId) });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe('bad input is a 400 naming the field and the message', () => {
    const cases: Array<[string, Record<string, string>, string, string]> = [
      ['a day that does not exist', { fromDate: '2025-02-30' }, 'fromDate', 'validation.invalid_date'],
      ['a time without its zone', { toDate: '2025-03-31T23:59:59' }, 'toDate', 'validation.invalid_date'],
      ['not a date', { toDate: 'yesterday' }, 'toDate', 'validation.invalid_date'],
      ['the end before the start', { fromDate: '2025-03-02', toDate: '2025-03-01' }, 'toDate', 'validation.date_order'],
      ['more than 366 days', { fromDate: '2024-01-01', toDate: '2025-01-02' }, 'fromDate', 'validation.date_range_too_long'],
      ['from long ago to the default end', { fromDate: '2000-01-01' }, 'fromDate', 'validation.date_range_too_long'],
      ['an unknown sort', { sort: 'publicKey' }, 'sort', 'validation.invalid_value'],
      ['a page larger than 100', { limit: '101' }, 'limit', 'validation.out_of_range'],
      ['a negative offset', { offset: '-10' }, 'offset', 'validation.out_of_range'],
      ['revoked other than true or false', { revoked: 'yes' }, 'revoked', 'validation.invalid_value'],
      ['a filter over 250 characters', { userId: 'x'.repeat(251) }, 'userId', 'validation.max_length'],
    ];
    it.each(cases)('%s', async (_label, query, field, code) => {
      const res = await list(admin, projectId, query as DeviceListParams);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toBe('validation_failed');
      expect(res.body.issues).toContainEqual(expect.objectContaining({ field, code }));
    });

    it('a range of exactly 366 days is answered', async () => {
      expect((await list(admin, projectId, { fromDate: '2024-01-01', toDate: '2024-12-31' })).status).toBe(200);
    });
  });
});
