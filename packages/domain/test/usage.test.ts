import { describe, expect, it } from 'vitest';
import {
  bucketStart,
  currentYearRange,
  globalUsageQuerySchema,
  rangeEnd,
  rangeStart,
  resolveUsagePeriods,
  usageBuckets,
  usageKeysOf,
  usagePeriodType,
  usageQuerySchema,
  type UsagePeriodType,
} from '../src/index.ts';

// spec §4 "Usage period type", §9 default range (the calendar year), issue 10: the buckets of the
// dashboard's chart. Everything is UTC.

/** The range the console sends for two picked days (spec §7: T00:00:00Z and T23:59:59Z). */
const picked = (from: string, to: string) => ({ from: rangeStart(`${from}T00:00:00Z`), to: rangeEnd(`${to}T23:59:59Z`) });
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('the period type of a range (spec §4)', () => {
  it.each<[string, string, UsagePeriodType]>([
    ['2025-03-05', '2025-03-05', 'hour'],
    ['2024-02-29', '2024-02-29', 'hour'],
    ['2025-03-01', '2025-03-31', 'day'],
    ['2025-03-05', '2025-03-06', 'day'],
    ['2024-02-01', '2024-02-29', 'day'],
    ['2025-03-31', '2025-04-01', 'month'],
    ['2025-01-01', '2025-12-31', 'month'],
    ['2024-12-15', '2025-01-15', 'month'],
    // The same month of another year is not "the same month and year".
    ['2024-03-05', '2025-03-05', 'month'],
  ])('%s to %s gives %s', (from, to, type) => {
    expect(usagePeriodType(picked(from, to))).toBe(type);
  });

  it('ends a day-only toDate with that day, as the T23:59:59Z form does', () => {
    expect(usagePeriodType({ from: rangeStart('2025-03-05'), to: rangeEnd('2025-03-05') })).toBe('hour');
    expect(usagePeriodType({ from: rangeStart('2025-03-05'), to: rangeEnd('2025-03-31') })).toBe('day');
  });
});

describe('the buckets of a range', () => {
  it('a day has its 24 hours, from midnight UTC', () => {
    const hours = usageBuckets(picked('2025-03-05', '2025-03-05'), 'hour');
    expect(hours).toHaveLength(24);
    expect(hours[0]?.toISOString()).toBe('2025-03-05T00:00:00.000Z');
    expect(hours[23]?.toISOString()).toBe('2025-03-05T23:00:00.000Z');
  });

  it.each([
    ['2025-02', '2025-02-01', '2025-02-28', 28],
    ['2024-02 (leap year)', '2024-02-01', '2024-02-29', 29],
    ['1900-02 (not a leap year)', '1900-02-01', '1900-02-28', 28],
    ['2000-02 (leap year)', '2000-02-01', '2000-02-29', 29],
    ['2025-04', '2025-04-01', '2025-04-30', 30],
    ['2025-12', '2025-12-01', '2025-12-31', 31],
  ])('the month %s has one bucket a day (%s to %s: %i)', (_, from, to, days) => {
    const buckets = usageBuckets(picked(from, to), 'day');
    expect(buckets).toHaveLength(days);
    expect(buckets[0]?.toISOString()).toBe(`${from}T00:00:00.000Z`);
    expect(buckets.at(-1)?.toISOString()).toBe(`${to}T00:00:00.000Z`);
  });

  it('a calendar year has its 12 months; a range across years has every month it touches, whole', () => {
    expect(iso(usageBuckets(picked('2025-01-01', '2025-12-31'), 'month'))).toEqual(
      Array.from({ length: 12 }, (_, m) => `2025-${String(m + 1).padStart(2, '0')}-01T00:00:00.000Z`),
    );
    expect(iso(usageBuckets(picked('2024-12-15', '2025-02-03'), 'month'))).toEqual([
      '2024-12-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2025-02-01T00:00:00.000Z',
    ]);
  });

  it('a range that starts inside an hour or a day has that whole bucket', () => {
    const range = { from: new Date('2025-03-05T10:30:00Z'), to: new Date('2025-03-05T12:00:01Z') };
    expect(iso(usageBuckets(range, 'hour'))).toEqual(['2025-03-05T10:00:00.000Z', '2025-03-05T11:00:00.000Z', '2025-03-05T12:00:00.000Z']);
    expect(iso(usageBuckets(range, 'day'))).toEqual(['2025-03-05T00:00:00.000Z']);
  });

  it.each<[UsagePeriodType, string, string]>([
    ['hour', '2025-03-05T10:59:59.999Z', '2025-03-05T10:00:00.000Z'],
    ['day', '2024-02-29T23:59:59.999Z', '2024-02-29T00:00:00.000Z'],
    ['month', '2024-02-29T23:59:59.999Z', '2024-02-01T00:00:00.000Z'],
    ['month', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z'],
  ])('the %s of %s starts at %s', (type, at, start) => {
    expect(bucketStart(new Date(at), type).toISOString()).toBe(start);
  });
});

describe('a usage call (spec §7, §9)', () => {
  const now = new Date('2025-06-15T12:00:00Z');

  it('covers the current calendar year by default, by month', () => {
    expect(currentYearRange(now)).toEqual({ from: new Date('2025-01-01T00:00:00Z'), to: new Date('2026-01-01T00:00:00Z') });
    const found = resolveUsagePeriods({}, now);
    expect(Array.isArray(found)).toBe(false);
    if (Array.isArray(found)) return;
    expect(found.periodType).toBe('month');
    expect(found.buckets).toHaveLength(12);
  });

  it('takes an explicit period type, within its number of buckets', () => {
    const week = { fromDate: '2025-03-01T00:00:00Z', toDate: '2025-03-07T23:59:59Z' };
    const hours = resolveUsagePeriods({ ...week, periodType: 'hour' }, now);
    expect(Array.isArray(hours) ? hours : hours.buckets.length).toBe(7 * 24);
    const tooMany = resolveUsagePeriods({ fromDate: '2025-01-01', toDate: '2025-03-01', periodType: 'hour' }, now);
    expect(tooMany).toEqual([expect.objectContaining({ field: 'periodType', code: 'validation.too_many_periods' })]);
  });

  it.each([
    [{ fromDate: '2025-03-02', toDate: '2025-03-01' }, 'toDate', 'validation.date_order'],
    [{ fromDate: '2019-01-01', toDate: '2025-03-01' }, 'fromDate', 'validation.usage_range_too_long'],
    [{ fromDate: '2025-02-30' }, 'fromDate', 'validation.invalid_date'],
    [{ toDate: 'yesterday' }, 'toDate', 'validation.invalid_date'],
    [{ periodType: 'week' }, 'periodType', 'validation.invalid_value'],
    [{ scope: 'console' }, 'scope', 'validation.invalid_value'],
    [{ type: 'projects' }, 'type', 'validation.invalid_value'],
    [{ locationType: 'city' }, 'locationType', 'validation.invalid_value'],
  ])('refuses %o: %s %s', (query, field, code) => {
    const result = usageQuerySchema.safeParse(query);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual([field, code]);
  });

  it('takes five years (leap days included), and type=projects only over every project', () => {
    expect(usageQuerySchema.safeParse({ fromDate: '2020-01-01', toDate: '2024-12-31' }).success).toBe(true);
    expect(globalUsageQuerySchema.safeParse({ type: 'projects' }).success).toBe(true);
  });

  it('counts under a scope only the keys of its events (docs/decisions/0014)', () => {
    expect(usageKeysOf(undefined)).toEqual(['issued', 'oidc', 'jwt', 'dvs-auth', 'dvs-verify', 'reg-code']);
    expect(usageKeysOf('oidc')).toEqual(['issued', 'oidc']);
    expect(usageKeysOf('authcode')).toEqual(['jwt']);
    expect(usageKeysOf('reg-code')).toEqual(['reg-code']);
    expect(usageKeysOf('dvs-reg')).toEqual([]);
  });
});
