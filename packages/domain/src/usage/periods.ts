import type { DateRange } from '../list/ranged-list.ts';

// spec §4 "Usage period type" and the buckets of the dashboard's chart (issue 10). Everything is
// UTC: a day is a UTC day, a month a UTC calendar month, as every date the console shows.

export const USAGE_PERIOD_TYPES = ['hour', 'day', 'month'] as const;
export type UsagePeriodType = (typeof USAGE_PERIOD_TYPES)[number];

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of an instant. */
function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * spec §4: a single day gives hour; the same month and year gives day; otherwise month. The range
 * is half-open, so its last day is the day of the instant just before `to` (`toDate=…T23:59:59Z`
 * and `toDate` as a day both end that day).
 */
export function usagePeriodType(range: DateRange): UsagePeriodType {
  const first = dayOf(range.from);
  const last = dayOf(new Date(range.to.getTime() - 1));
  if (first === last) return 'hour';
  if (first.slice(0, 7) === last.slice(0, 7)) return 'day';
  return 'month';
}

/** The start of the bucket of `type` that holds `at`. */
export function bucketStart(at: Date, type: UsagePeriodType): Date {
  if (type === 'hour') return new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
  if (type === 'day') return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The start of the bucket after the one starting at `start`. */
export function nextBucket(start: Date, type: UsagePeriodType): Date {
  if (type === 'hour') return new Date(start.getTime() + HOUR_MS);
  if (type === 'day') return new Date(start.getTime() + DAY_MS);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

/**
 * Every bucket of `type` the range touches, in order, as the instants they start at: a day gives 24
 * hours, a month its 28 to 31 days, a calendar year its 12 months. A range that starts or ends
 * inside a bucket has that whole bucket (the chart shows calendar periods); a bucket with no usage
 * is still listed (with zeros).
 */
export function usageBuckets(range: DateRange, type: UsagePeriodType): Date[] {
  const buckets: Date[] = [];
  for (let at = bucketStart(range.from, type); at.getTime() < range.to.getTime(); at = nextBucket(at, type)) buckets.push(at);
  return buckets;
}

/** The most buckets one answer holds, by period type: a month of hours, a year of days, five years of months. */
export const MAX_USAGE_BUCKETS: Record<UsagePeriodType, number> = { hour: 31 * 24, day: 366, month: 60 };
