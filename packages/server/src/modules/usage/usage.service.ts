import {
  bucketStart,
  nextBucket,
  requireUsagePeriods,
  TOP_PROJECTS,
  USAGE_EVENT_KEYS,
  usageKeysOf,
  type DateRange,
  type EnrollmentFunnel,
  type EnrollmentKey,
  type EnrollmentQuery,
  type GlobalUsage,
  type GlobalUsageQuery,
  type Usage,
  type UsageKey,
  type UsagePeriods,
  type UsageQuery,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import {
  activeUsersWithPasskeys,
  bucketName,
  enrollmentCounts,
  usageByBucket,
  usageByCountry,
  usageByProject,
  type UsageSelection,
} from './usage.repository.ts';

export interface UsageServiceDeps {
  db: Db;
  clock: Clock;
}

/** The whole UTC days a range touches: from the start of its first day up to the end of its last. */
function wholeDays(range: DateRange): { from: Date; end: Date } {
  return { from: bucketStart(range.from, 'day'), end: nextBucket(bucketStart(new Date(range.to.getTime() - 1), 'day'), 'day') };
}

/**
 * spec §7 "Usage", issue 10 (docs/decisions/0020): usage answered from the rollups the provider
 * keeps in the transaction of each event (docs/decisions/0014), never by reading the events.
 * Ranges default to the current calendar year (UTC) and cover whole buckets; `sum` is the events
 * (every key but `issued`), `issued` the device registrations; a scope keeps only its keys.
 */
export function createUsageService({ db, clock }: UsageServiceDeps) {
  async function periods(projectId: string | null, q: UsageQuery | GlobalUsageQuery): Promise<UsagePeriods> {
    const { periodType, buckets } = requireUsagePeriods(q, clock.now());
    const first = buckets[0] ?? bucketStart(clock.now(), periodType);
    const end = nextBucket(buckets.at(-1) ?? first, periodType);
    const counted = await usageByBucket(db, { projectId, keys: usageKeysOf(q.scope) }, periodType, first, end);
    const totals = { issued: 0, sum: 0 };
    const answer = buckets.map((start) => {
      const found = counted.get(bucketName(start, periodType));
      const of = (key: UsageKey) => found?.get(key) ?? 0;
      const events = Object.fromEntries(USAGE_EVENT_KEYS.map((k) => [k, of(k)])) as UsagePeriods['periods'][number]['keys']['events'];
      totals.issued += of('issued');
      for (const k of USAGE_EVENT_KEYS) totals.sum += events[k];
      return { period: start.toISOString(), keys: { issued: of('issued'), events } };
    });
    return { totals, periodType, periods: answer };
  }

  /** spec §3 "Location rows": the events (not the registrations) by country over the range's whole days. */
  async function locations(projectId: string | null, q: UsageQuery | GlobalUsageQuery): Promise<Usage> {
    const { range } = requireUsagePeriods(q, clock.now());
    const { from, end } = wholeDays(range);
    const selection: UsageSelection = { projectId, keys: usageKeysOf(q.scope).filter((k) => k !== 'issued') };
    const rows = selection.keys.length === 0 ? [] : await usageByCountry(db, selection, from, end);
    return { locations: rows.map((r) => ({ country: r.country, keys: { sum: r.count } })) };
  }

  return {
    /** GET projects/{project}/usage: the guard has checked `usage` on the project; a closed project's usage is read like any other. */
    async project(projectId: string, q: UsageQuery): Promise<Usage> {
      return q.type === 'locations' ? locations(projectId, q) : periods(projectId, q);
    },
    /**
     * GET projects/{project}/usage/enrollment (docs/decisions/0050): the funnel from the enrollment
     * rollup, counted in each event's transaction like the usage figures, and the range's people.
     */
    async enrollment(projectId: string, q: EnrollmentQuery): Promise<EnrollmentFunnel> {
      const { range } = requireUsagePeriods(q, clock.now());
      const { from, end } = wholeDays(range);
      const [counts, activeUsers] = await Promise.all([
        enrollmentCounts(db, projectId, from, end),
        activeUsersWithPasskeys(db, projectId, from, end),
      ]);
      const of = (key: EnrollmentKey) => counts.get(key) ?? 0;
      return {
        offers: { shown: of('offer_shown'), created: of('offer_created'), declined: of('offer_declined') },
        signIns: { passkey: of('sign_in_passkey'), fallback: of('sign_in_fallback') },
        activeUsers,
        ceremonies: {
          started: of('offer_shown') + of('sign_in_passkey') + of('passkey_refused'),
          completed: of('offer_created') + of('sign_in_passkey'),
        },
      };
    },
    /** GET usage (glb::usage): every project's usage together, or the top projects of the range. */
    async global(q: GlobalUsageQuery): Promise<GlobalUsage> {
      if (q.type === 'locations') return locations(null, q);
      if (q.type === 'projects') {
        const { range } = requireUsagePeriods(q, clock.now());
        const { from, end } = wholeDays(range);
        return { projects: await usageByProject(db, usageKeysOf(q.scope), from, end, TOP_PROJECTS) };
      }
      return periods(null, q);
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
