import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { cleanString } from '../validation/fields.ts';
import type { FieldIssue } from '../validation/issues.ts';
import { validationText, type ValidationMessageKey } from '../validation/messages.ts';

// Lists of what happens over time, at millions of rows (issue 9: devices and the audit log;
// docs/decisions/0019): always within a bounded date range, totals counted up to a cap, and a
// cursor that lets the next page seek instead of skipping.

/** The longest date range a list answers: a year, leap day included. */
export const MAX_RANGE_DAYS = 366;
/** Totals are counted up to this; beyond it the answer says "more than TOTAL_CAP" (`totalCapped`). */
export const TOTAL_CAP = 10_000;

const DAY_MS = 86_400_000;

// spec §7 "Usage": fromDate is sent as the date plus T00:00:00Z, toDate as the date plus T23:59:59Z.
// A date alone is accepted too. Times need a zone (Z or ±HH:MM): the console shows dates in UTC.
const DATE_PARAM = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** A `YYYY-MM-DD` day or an ISO 8601 time with its zone, naming a real calendar day and time. */
export function isDateParam(value: string): boolean {
  const m = DATE_PARAM.exec(value);
  if (!m) return false;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return false;
  if (zone && zone !== 'Z' && (Number(zone.slice(1, 3)) > 23 || Number(zone.slice(4)) > 59)) return false;
  const day = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === `${y}-${mo}-${d}`;
}

/** A fromDate / toDate query parameter (checked for form here; the range as a whole by `resolveDateRange`). */
export const dateParam = () => cleanString(40).refine(isDateParam, { error: 'validation.invalid_date' });

/** The first instant a fromDate names: its day's start, or the time itself. */
export function rangeStart(value: string): Date {
  return value.length === 10 ? new Date(`${value}T00:00:00Z`) : new Date(value);
}

/**
 * The first instant after what a toDate names (ranges are half-open): a day counts to its end, a
 * time to the end of its second (T23:59:59Z covers the whole last second of the day).
 */
export function rangeEnd(value: string): Date {
  if (value.length === 10) return new Date(new Date(`${value}T00:00:00Z`).getTime() + DAY_MS);
  const at = new Date(value).getTime();
  return new Date(at - (((at % 1000) + 1000) % 1000) + 1000);
}

/** spec §9 "Default ranges": the current calendar month (UTC) of `now`, half-open. */
export function currentMonthRange(now: Date): { from: Date; to: Date } {
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/** A half-open range of instants, [from, to). */
export interface DateRange {
  from: Date;
  to: Date;
}

const issue = (field: string, code: ValidationMessageKey): FieldIssue => ({ field, code, message: validationText(code) });

/** How a kind of call bounds and defaults its range. */
export interface RangeRules {
  /** The longest range answered, in days. */
  maxDays: number;
  /** The issue a longer range gets. */
  tooLong: ValidationMessageKey;
  /** The period a call without dates covers, by the clock (e.g. the current month); toDate alone starts at the beginning of the same period. */
  defaultRange: (now: Date) => DateRange;
}

/** Lists (devices, audit): the current month by default, a year at the most (docs/decisions/0019). */
export const LIST_RANGE: RangeRules = { maxDays: MAX_RANGE_DAYS, tooLong: 'validation.date_range_too_long', defaultRange: currentMonthRange };

/**
 * Lists of who rather than what happened (end users, issue 24): every creation time by default and
 * no longest range. Their pages still read a bounded number of rows: seek paging, totals counted up
 * to TOTAL_CAP (docs/decisions/0038).
 */
export const ALL_TIME_RANGE: RangeRules = {
  maxDays: Number.POSITIVE_INFINITY,
  tooLong: 'validation.date_range_too_long',
  // The last second of 9999 (a later year would be written +010000, which PostgreSQL does not read).
  defaultRange: () => ({ from: new Date(0), to: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)) }),
};

/**
 * The range a call covers. Without toDate the range ends with the default period; without fromDate
 * it starts at the beginning of toDate's default period. Answers the issues instead when toDate is
 * before fromDate or the range is longer than the rules allow: every such call is bounded in time,
 * so no call reads everything.
 */
export function resolveRange(
  q: { fromDate?: string | undefined; toDate?: string | undefined },
  now: Date,
  rules: RangeRules,
): DateRange | FieldIssue[] {
  const to = q.toDate ? rangeEnd(q.toDate) : rules.defaultRange(now).to;
  const from = q.fromDate ? rangeStart(q.fromDate) : rules.defaultRange(new Date(to.getTime() - 1)).from;
  if (to.getTime() <= from.getTime()) return [issue(q.toDate ? 'toDate' : 'fromDate', 'validation.date_order')];
  if (to.getTime() - from.getTime() > rules.maxDays * DAY_MS) return [issue(q.fromDate ? 'fromDate' : 'toDate', rules.tooLong)];
  return { from, to };
}

/** The range a list call covers (spec §9: devices and audit default to the current month, UTC): `resolveRange` with LIST_RANGE. */
export function resolveDateRange(q: { fromDate?: string | undefined; toDate?: string | undefined }, now: Date): DateRange | FieldIssue[] {
  return resolveRange(q, now, LIST_RANGE);
}

/** `resolveRange` (LIST_RANGE unless told), or a 400 `validation_failed` naming the field and the message. */
export function requireDateRange(
  q: { fromDate?: string | undefined; toDate?: string | undefined },
  now: Date,
  rules: RangeRules = LIST_RANGE,
): DateRange {
  const found = resolveRange(q, now, rules);
  if (Array.isArray(found)) throw new DomainError('validation_failed', found.map((i) => i.message).join('; '), found);
  return found;
}

/** Both ends given: the range's issues are the query's (a 400 before the call runs, and the console's form rule). */
export function refineDateRange(q: { fromDate?: string | undefined; toDate?: string | undefined }, ctx: z.RefinementCtx): void {
  refineRange(q, ctx, LIST_RANGE);
}

/** As `refineDateRange`, by other rules. */
export function refineRange(q: { fromDate?: string | undefined; toDate?: string | undefined }, ctx: z.RefinementCtx, rules: RangeRules): void {
  if (!q.fromDate || !q.toDate || !isDateParam(q.fromDate) || !isDateParam(q.toDate)) return;
  const found = resolveRange(q, new Date(0), rules);
  if (Array.isArray(found)) for (const i of found) ctx.addIssue({ code: 'custom', path: [i.field], message: i.code });
}

/**
 * The optional seek cursor of a ranged list: `nextCursor` of the page before, sent with
 * offset = that page's offset + limit. A hint only: the offset decides what is answered, and a
 * cursor that does not belong to this query and offset is ignored.
 */
export const cursorParam = () => cleanString(1000);

/**
 * spec §3 "List responses: total and a list", for lists that can hold millions of rows. `total`
 * counts the matching rows up to TOTAL_CAP; when there are more, `total` is TOTAL_CAP and
 * `totalCapped` is true ("10,000+"). `nextCursor`, when not null, fetches the next page faster
 * (pass it as `cursor` with offset + limit); null when this page is the last or the sort cannot seek.
 */
export function rangedListResponseSchema<T extends z.ZodType>(item: T) {
  return z.object({
    total: z.number().int().describe(`Rows matching the filter, counted up to ${TOTAL_CAP}`),
    totalCapped: z.boolean().describe(`true: more than ${TOTAL_CAP} rows match (total is ${TOTAL_CAP})`),
    list: z.array(item),
    nextCursor: z.string().nullable().describe('Send as cursor with offset + limit to seek to the next page; null: none'),
  });
}
