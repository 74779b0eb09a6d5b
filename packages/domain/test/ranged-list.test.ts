import { describe, expect, it } from 'vitest';
import { currentMonthRange, isDateParam, MAX_RANGE_DAYS, rangeEnd, rangeStart, resolveDateRange } from '../src/index.ts';

// docs/decisions/0019: the date range of the devices and audit lists (spec §9 default ranges).
describe('date parameters', () => {
  it.each([
    ['2025-03-01', true],
    ['2024-02-29', true],
    ['2025-03-01T00:00:00Z', true],
    ['2025-03-31T23:59:59Z', true],
    ['2025-03-31T23:59:59.999Z', true],
    ['2025-03-31T23:59Z', true],
    ['2025-03-31T10:00:00+02:00', true],
    ['2025-02-29', false],
    ['2025-04-31', false],
    ['2025-13-01', false],
    ['2025-03-01T24:00:00Z', false],
    ['2025-03-01T10:60:00Z', false],
    ['2025-03-01T10:00:00', false],
    ['2025-03-01T10:00:00+24:00', false],
    ['2025-3-1', false],
    ['+02025-03-01', false],
    ['yesterday', false],
    ['', false],
  ])('%s is a date parameter: %s', (value, valid) => {
    expect(isDateParam(value)).toBe(valid);
  });

  it.each([
    ['2025-03-01', '2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z'],
    ['2025-03-31T23:59:59Z', '2025-03-31T23:59:59.000Z', '2025-04-01T00:00:00.000Z'],
    ['2025-03-31T23:59:59.250Z', '2025-03-31T23:59:59.250Z', '2025-04-01T00:00:00.000Z'],
    ['2025-03-31T10:00:00+02:00', '2025-03-31T08:00:00.000Z', '2025-03-31T08:00:01.000Z'],
  ])('%s starts a range at %s and ends one (exclusive) at %s', (value, start, end) => {
    expect(rangeStart(value).toISOString()).toBe(start);
    expect(rangeEnd(value).toISOString()).toBe(end);
  });
});

describe('the range of a list call', () => {
  const now = new Date('2026-02-15T10:00:00Z');
  const iso = (r: ReturnType<typeof resolveDateRange>) =>
    Array.isArray(r) ? r.map((i) => `${i.field} ${i.code}`) : [r.from.toISOString(), r.to.toISOString()];

  it.each<[string, { fromDate?: string; toDate?: string }, string[]]>([
    ['nothing: the current month (UTC)', {}, ['2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z']],
    ['fromDate alone: to the end of the current month', { fromDate: '2025-12-10' }, ['2025-12-10T00:00:00.000Z', '2026-03-01T00:00:00.000Z']],
    ['toDate alone: from the start of its month', { toDate: '2025-06-10' }, ['2025-06-01T00:00:00.000Z', '2025-06-11T00:00:00.000Z']],
    [
      'both, as the console sends them',
      { fromDate: '2025-06-01T00:00:00Z', toDate: '2025-06-30T23:59:59Z' },
      ['2025-06-01T00:00:00.000Z', '2025-07-01T00:00:00.000Z'],
    ],
    ['one day', { fromDate: '2025-06-01', toDate: '2025-06-01' }, ['2025-06-01T00:00:00.000Z', '2025-06-02T00:00:00.000Z']],
    ['a leap year: 366 days', { fromDate: '2024-01-01', toDate: '2024-12-31' }, ['2024-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z']],
    ['367 days', { fromDate: '2024-01-01', toDate: '2025-01-01' }, ['fromDate validation.date_range_too_long']],
    ['fromDate alone, long ago', { fromDate: '2020-01-01' }, ['fromDate validation.date_range_too_long']],
    ['the end before the start', { fromDate: '2025-06-02', toDate: '2025-06-01' }, ['toDate validation.date_order']],
    ['fromDate alone, after the current month', { fromDate: '2026-04-01' }, ['fromDate validation.date_order']],
  ])('%s', (_label, query, expected) => {
    expect(iso(resolveDateRange(query, now))).toEqual(expected);
  });

  it('the current month of the last instant of a year is December', () => {
    const { from, to } = currentMonthRange(new Date('2025-12-31T23:59:59.999Z'));
    expect([from.toISOString(), to.toISOString()]).toEqual(['2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
    expect(MAX_RANGE_DAYS).toBe(366);
  });
});
