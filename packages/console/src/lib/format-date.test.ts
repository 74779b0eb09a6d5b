import { describe, expect, it } from 'vitest';
import { currentMonthDays, formatUtcDate, formatUtcDateTime, formatUtcTime } from './format-date.ts';
import { formatNumber } from './format-number.ts';
import { countryName } from './country-name.ts';

describe('dates as D Mon YYYY in UTC, with HH:MM:SS for times (spec §9)', () => {
  it.each([
    ['2025-03-05T09:05:07.123Z', '5 Mar 2025', '5 Mar 2025 09:05:07'],
    ['2024-12-31T23:59:59Z', '31 Dec 2024', '31 Dec 2024 23:59:59'],
    // A time given in another zone is shown in UTC: here the next day.
    ['2025-01-31T22:30:00-02:00', '1 Feb 2025', '1 Feb 2025 00:30:00'],
    ['not a time', 'not a time', 'not a time'],
  ])('%s', (iso, date, dateTime) => {
    expect(formatUtcDate(iso)).toBe(date);
    expect(formatUtcDateTime(iso)).toBe(dateTime);
    expect(formatUtcTime(iso)).toBe(dateTime === date ? '' : dateTime.slice(date.length + 1));
  });
});

describe('the current month (spec §9 default ranges)', () => {
  it.each([
    ['2025-03-15T12:00:00Z', '2025-03-01', '2025-03-31'],
    ['2024-02-01T00:00:00Z', '2024-02-01', '2024-02-29'],
    ['2025-02-28T23:59:59Z', '2025-02-01', '2025-02-28'],
    ['2025-12-31T23:59:59Z', '2025-12-01', '2025-12-31'],
  ])('of %s is %s to %s', (now, fromDate, toDate) => {
    expect(currentMonthDays(new Date(now))).toEqual({ fromDate, toDate });
  });
});

describe('dates, numbers and countries in the console language (issue 13)', () => {
  it.each([
    ['en', '5 Mar 2025 09:05:07', '1 Feb 2025', '1,234,567'],
    ['fr', '5 mars 2025 09:05:07', '1 févr. 2025', '1\u202f234\u202f567'],
    ['ro', '5 mar. 2025 09:05:07', '1 feb. 2025', '1.234.567'],
  ] as const)('%s', (language, dateTime, date, number) => {
    expect(formatUtcDateTime('2025-03-05T09:05:07Z', language)).toBe(dateTime);
    expect(formatUtcDate('2025-01-31T22:30:00-02:00', language)).toBe(date);
    expect(formatNumber(1234567, language)).toBe(number);
  });

  it('names countries in the language, and ZZ as unknown', () => {
    expect(countryName('DE', '?', 'en')).toBe('Germany');
    expect(countryName('DE', '?', 'fr')).toBe('Allemagne');
    expect(countryName('DE', '?', 'ro')).toBe('Germania');
    expect(countryName('ZZ', 'inconnu', 'fr')).toBe('inconnu');
  });
});
