import { beforeAll, expect, it } from 'vitest';
import {
  api,
  nextBucket,
  rangeEnd,
  rangeStart,
  TOP_PROJECTS,
  USAGE_EVENT_KEYS,
  usageBuckets,
  usageKeysOf,
  usagePeriodType,
  type GlobalUsageParams,
  type Scope,
  type UsageKey,
  type UsageLocations,
  type UsageParams,
  type UsagePeriods,
  type UsagePeriodType,
  type UsageProjects,
} from '@latchkey/domain';
import { monthStart, ensureEventPartitions } from '../src/modules/audit/event-partitions.ts';
import { countryLookup } from '../src/geoip.ts';
import type { EndUserEvent } from '../src/events/end-user-event.ts';
import { projectEvents } from '../src/events/project-events.ts';
import { anonymous, signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeEachDatabase } from './support/databases.ts';
import { apiPath, closeProject, createProject } from './support/fixtures.ts';

interface ErrorAnswer {
  error: string;
  message: string;
  issues?: Array<{ field: string; code: string; message: string }>;
}

/** What the provider writes for each usage key (docs/decisions/0014 "What counts where"), and a refusal that counts nowhere. */
const EVENT_OF: Record<UsageKey | 'none', Omit<EndUserEvent, 'userId'>> = {
  issued: { scope: 'oidc', status: 'created', action: 'device.register', usage: 'issued' },
  oidc: { scope: 'oidc', status: 'success', action: 'sign_in', usage: 'oidc' },
  jwt: { scope: 'authcode', status: 'success', action: 'code.exchanged', usage: 'jwt' },
  'reg-code': { scope: 'reg-code', status: 'success', action: 'reg_code.issued', usage: 'reg-code' },
  'dvs-auth': { scope: 'dvs-auth', status: 'success', action: 'dvs.auth', usage: 'dvs-auth' },
  'dvs-verify': { scope: 'dvs-verify', status: 'success', action: 'dvs.verify', usage: 'dvs-verify' },
  none: { scope: 'oidc', status: 'failed', action: 'sign_in' },
};
const KINDS = Object.keys(EVENT_OF) as Array<UsageKey | 'none'>;
/** Addresses of a few places: Great Britain, the Netherlands' RIPE NCC, and loopback (ZZ). */
const ADDRESSES = ['81.2.69.160', '193.0.6.139', '127.0.0.1'];

interface Written {
  projectId: string;
  at: Date;
  kind: UsageKey | 'none';
  country: string;
}

/** A small seeded generator (mulberry32), so a failing case can be run again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);
const isCounted = (w: Written, keys: readonly UsageKey[]) => w.kind !== 'none' && keys.includes(w.kind);

// spec §7 "Usage", §3 "Usage response", §4 period type, §6 guard `usage` and glb::usage; issue 10;
// docs/decisions/0020. The answers come from the rollups; here they are held against the events
// the provider's own writer stored, counted again in the test.
describeEachDatabase('usage (GET projects/{project}/usage, GET usage)', (t) => {
  const app = useTestApp(t, { env: { PROJECTS_PER_ACCOUNT: '100' } });

  let owner: SignedIn;
  let projectA: string;
  let projectB: string;
  let written: Written[];
  let windowStart: Date;
  let windowEnd: Date;
  const seed = Number(process.env.USAGE_SEED ?? Date.now() % 100_000);

  async function usage<T>(by: SignedIn, project: string | null, query: UsageParams | GlobalUsageParams = {}) {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
    const path = project === null ? apiPath(api.getGlobalUsage) : apiPath(api.getUsage, { project });
    return by.api.get<T & ErrorAnswer>(`${path}?${qs}`);
  }
  async function answered<T>(by: SignedIn, project: string | null, query: UsageParams | GlobalUsageParams = {}): Promise<T> {
    const res = await usage<T>(by, project, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  /** The periods the events written would give, counted one by one. */
  function expectedPeriods(projects: string[], from: string, to: string, scope?: Scope, type?: UsagePeriodType): UsagePeriods {
    const range = { from: rangeStart(from), to: rangeEnd(to) };
    const periodType = type ?? usagePeriodType(range);
    const keys = usageKeysOf(scope);
    const mine = written.filter((w) => projects.includes(w.projectId) && isCounted(w, keys));
    const totals = { issued: 0, sum: 0 };
    const periods = usageBuckets(range, periodType).map((start) => {
      const end = nextBucket(start, periodType);
      const inside = mine.filter((w) => w.at >= start && w.at < end);
      const count = (k: UsageKey) => inside.filter((w) => w.kind === k).length;
      totals.issued += count('issued');
      totals.sum += inside.filter((w) => w.kind !== 'issued').length;
      return {
        period: start.toISOString(),
        keys: {
          issued: count('issued'),
          events: Object.fromEntries(USAGE_EVENT_KEYS.map((k) => [k, count(k)])) as UsagePeriods['periods'][number]['keys']['events'],
        },
      };
    });
    return { totals, periodType, periods };
  }

  /** The events (not registrations) by country over the range's whole days, largest first. */
  function expectedLocations(projects: string[], from: string, to: string, scope?: Scope): UsageLocations {
    const start = rangeStart(from.slice(0, 10));
    const end = new Date(rangeStart(to.slice(0, 10)).getTime() + DAY);
    const keys = usageKeysOf(scope).filter((k) => k !== 'issued');
    const byCountry = new Map<string, number>();
    for (const w of written) {
      if (projects.includes(w.projectId) && isCounted(w, keys) && w.at >= start && w.at < end)
        byCountry.set(w.country, (byCountry.get(w.country) ?? 0) + 1);
    }
    const locations = [...byCountry].map(([country, sum]) => ({ country, keys: { sum } }));
    locations.sort((a, b) => b.keys.sum - a.keys.sum || (a.country < b.country ? -1 : 1));
    return { locations };
  }

  beforeAll(async () => {
    owner = await signedInAccount(app, t.db, ['glb::*']);
    projectA = await createProject(owner, 'Usage A');
    projectB = await createProject(owner, 'Usage B');
    // Fourteen whole months before this one: ranges of a year fit anywhere inside.
    const now = app.clock.now();
    windowStart = monthStart(now, -14);
    windowEnd = monthStart(now);
    for (let m = -14; m < 0; m += 4) await ensureEventPartitions(t.db, monthStart(now, m));

    const next = random(seed);
    const countries = countryLookup();
    let at = windowStart;
    const writers = new Map(
      [projectA, projectB].map((projectId) => [
        projectId,
        projectEvents({ db: t.db, clock: { now: () => at }, secretBox: app.services.secretBox, countries, projectId }),
      ]),
    );
    written = [];
    const span = windowEnd.getTime() - windowStart.getTime();
    // Most events in a few busy days (so hours and days have several), the rest anywhere in the window.
    const busyDays = Array.from({ length: 4 }, () => windowStart.getTime() + Math.floor(next() * (span / DAY)) * DAY);
    for (let i = 0; i < 360; i++) {
      at = new Date(i % 3 === 0 ? windowStart.getTime() + Math.floor(next() * span) : (busyDays[i % 4] ?? 0) + Math.floor(next() * DAY));
      const projectId = next() < 0.7 ? projectA : projectB;
      const kind = KINDS[Math.floor(next() * KINDS.length)] ?? 'none';
      const ip = ADDRESSES[Math.floor(next() * ADDRESSES.length)] ?? null;
      await writers.get(projectId)?.recordNow({ ip, userAgent: null, clientId: 'client-1' }, { ...EVENT_OF[kind], userId: `user${i}@example.com` });
      written.push({ projectId, at, kind, country: countries.countryOf(ip) });
    }
  });

  it('answers the totals and every bucket of random ranges as the events written count them (property, seed in the name)', async () => {
    const next = random(seed + 1);
    const windowDays = Math.round((windowEnd.getTime() - windowStart.getTime()) / DAY);
    const someDay = (after = 0, within = windowDays - after) => day(new Date(windowStart.getTime() + (after + Math.floor(next() * within)) * DAY));
    const busy = [...new Set(written.map((w) => day(w.at)))];
    const cases: Array<{ from: string; to: string; scope?: Scope; type?: UsagePeriodType }> = [];
    for (let i = 0; i < 12; i++) {
      const offset = Math.floor(next() * (windowDays - 1));
      const from = someDay(offset, 1);
      const kind = i % 4;
      // A year or less by month; a month by day; one day by hour; a few days by hour (asked for).
      if (kind === 0) cases.push({ from, to: someDay(offset, Math.min(366, windowDays - offset)) });
      if (kind === 1)
        cases.push({ from: `${from.slice(0, 8)}01`, to: day(new Date(Date.UTC(Number(from.slice(0, 4)), Number(from.slice(5, 7)), 0))) });
      if (kind === 2) {
        const one = busy[Math.floor(next() * busy.length)] ?? from;
        cases.push({ from: one, to: one });
      }
      if (kind === 3) cases.push({ from, to: day(new Date(rangeStart(from).getTime() + 3 * DAY)), type: 'hour' });
      if (i % 3 === 0) cases[cases.length - 1]!.scope = (['oidc', 'authcode', 'reg-code', 'dvs-reg'] as const)[i % 4];
    }
    for (const c of cases) {
      const query = {
        fromDate: `${c.from}T00:00:00Z`,
        toDate: `${c.to}T23:59:59Z`,
        ...(c.scope ? { scope: c.scope } : {}),
        ...(c.type ? { periodType: c.type } : {}),
      };
      const label = `seed ${seed}: ${JSON.stringify(query)}`;
      expect(await answered<UsagePeriods>(owner, projectA, query), label).toEqual(
        expectedPeriods([projectA], query.fromDate, query.toDate, c.scope, c.type),
      );
      expect(await answered<UsagePeriods>(owner, null, query), label).toEqual(
        expectedPeriods([projectA, projectB], query.fromDate, query.toDate, c.scope, c.type),
      );
      expect(await answered<UsageLocations>(owner, projectB, { ...query, type: 'locations', locationType: 'country' }), label).toEqual(
        expectedLocations([projectB], query.fromDate, query.toDate, c.scope),
      );
    }
    // Something was counted at all: the property would hold trivially on an empty table.
    const whole = await answered<UsagePeriods>(owner, null, {
      fromDate: day(windowStart),
      toDate: day(new Date(windowEnd.getTime() - DAY)),
      periodType: 'month',
    });
    expect(whole.totals.sum + whole.totals.issued).toBe(written.filter((w) => w.kind !== 'none').length);
  });

  it('covers the current calendar year by month by default, zeros included (spec §9)', async () => {
    const fresh = await createProject(owner);
    const year = app.clock.now().getUTCFullYear();
    const answer = await answered<UsagePeriods>(owner, fresh);
    expect(answer.periodType).toBe('month');
    expect(answer.periods.map((p) => p.period)).toEqual(Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(year, m, 1)).toISOString()));
    expect(answer.totals).toEqual({ issued: 0, sum: 0 });
    expect(answer.periods[0]?.keys).toEqual({ issued: 0, events: { oidc: 0, jwt: 0, 'dvs-auth': 0, 'dvs-verify': 0, 'reg-code': 0 } });
    expect(await answered<UsageLocations>(owner, fresh, { type: 'locations', locationType: 'country' })).toEqual({ locations: [] });
  });

  it('lists the top projects of the range with their names, most events first, to glb::usage', async () => {
    const from = day(windowStart);
    const to = day(new Date(windowEnd.getTime() - DAY));
    const answer = await answered<UsageProjects>(owner, null, { fromDate: from, toDate: to, type: 'projects' });
    const of = (projectId: string) => {
      const mine = written.filter((w) => w.projectId === projectId && w.kind !== 'none');
      return { issued: mine.filter((w) => w.kind === 'issued').length, sum: mine.filter((w) => w.kind !== 'issued').length };
    };
    const expected = [
      { projectId: projectA, name: 'Usage A', ...of(projectA) },
      { projectId: projectB, name: 'Usage B', ...of(projectB) },
    ].sort((a, b) => b.sum - a.sum || b.issued - a.issued);
    expect(answer.projects).toEqual(expected);
    expect(answer.projects.length).toBeLessThanOrEqual(TOP_PROJECTS);
  });

  it('asks for usage on the project, glb::usage for every project; another project is 404, no session 401 (spec §6)', async () => {
    const usageOnly = await signedInAccount(app, t.db, [`cst:${projectA}:usage`]);
    const appsOnly = await signedInAccount(app, t.db, [`cst:${projectA}:apps`]);
    const globalUsage = await signedInAccount(app, t.db, ['glb::usage']);
    expect((await usage(usageOnly, projectA)).status).toBe(200);
    expect((await usage(globalUsage, projectA)).status).toBe(200);
    expect((await usage(globalUsage, null)).status).toBe(200);
    const refused: Array<[SignedIn, string | null, number]> = [
      [appsOnly, projectA, 403],
      [usageOnly, projectB, 404],
      [usageOnly, null, 403],
      [appsOnly, null, 403],
      [usageOnly, 'no-such-project', 404],
    ];
    for (const [by, project, status] of refused) {
      const res = await usage(by, project);
      expect(res.status, `${by.account.email} ${project}`).toBe(status);
      expect(res.body).not.toHaveProperty('periods');
    }
    expect((await anonymous(app).get(apiPath(api.getUsage, { project: projectA }))).status).toBe(401);
    expect((await anonymous(app).get(apiPath(api.getGlobalUsage))).status).toBe(401);
  });

  it("reads a closed project's usage like any other", async () => {
    const closed = await createProject(owner);
    await closeProject(owner, closed);
    expect((await usage(owner, closed)).status).toBe(200);
  });

  it.each<[string, Record<string, string>, string, string]>([
    ['from after to', { fromDate: '2025-03-02', toDate: '2025-03-01' }, 'toDate', 'The end date must not be before the start date'],
    ['more than five years', { fromDate: '2019-01-01', toDate: '2025-03-01' }, 'fromDate', 'The date range cannot be longer than 5 years'],
    ['an unparsable date', { fromDate: 'last week' }, 'fromDate', 'Invalid date'],
    ['a day that does not exist', { toDate: '2025-02-30' }, 'toDate', 'Invalid date'],
    [
      'hours over two months',
      { fromDate: '2025-01-01', toDate: '2025-03-01', periodType: 'hour' },
      'periodType',
      'Too many periods for this date range: choose a longer period type',
    ],
    ['an unknown period type', { periodType: 'week' }, 'periodType', 'Invalid value'],
    ['a scope not in spec §9', { scope: 'console' }, 'scope', 'Invalid value'],
    ['a location type other than country', { type: 'locations', locationType: 'city' }, 'locationType', 'Invalid value'],
    ['the top projects of one project', { type: 'projects' }, 'type', 'Invalid value'],
  ])('refuses %s with a 400 that names the field', async (_, query, field, message) => {
    const res = await usage(owner, projectA, query as UsageParams);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('validation_failed');
    expect(res.body.issues).toContainEqual(expect.objectContaining({ field, message }));
  });
});
