import { z } from 'zod';
import { SCOPES, USAGE_EVENT_KEYS, type Scope, type UsageEventKey, type UsageKey } from '../constants.ts';
import { dateParam, resolveRange, refineRange, type DateRange, type RangeRules } from '../list/ranged-list.ts';
import { DomainError } from '../errors.ts';
import type { FieldIssue } from '../validation/issues.ts';
import { validationText } from '../validation/messages.ts';
import { MAX_USAGE_BUCKETS, USAGE_PERIOD_TYPES, usageBuckets, usagePeriodType, type UsagePeriodType } from './periods.ts';

// spec §3 "Usage response", §7 "Usage", issue 10 (docs/decisions/0020).

/** spec §9 "Default ranges": the dashboard shows the current calendar year (UTC). */
export function currentYearRange(now: Date): DateRange {
  return { from: new Date(Date.UTC(now.getUTCFullYear(), 0, 1)), to: new Date(Date.UTC(now.getUTCFullYear() + 1, 0, 1)) };
}

/** Usage answers from rollups, so a longer range than a list's is cheap: about five years, leap days included. */
export const USAGE_RANGE: RangeRules = { maxDays: 5 * 366, tooLong: 'validation.usage_range_too_long', defaultRange: currentYearRange };

/**
 * The usage keys a scope filter keeps (spec §9 scope options; docs/decisions/0014 "What counts
 * where"): a passkey registration (`issued`) and a sign-in (`oidc`) are events of scope oidc, an ID
 * token issued for a code (`jwt`) of authcode, a QuickCode issued (`reg-code`) of reg-code. The DVS
 * scopes have no passkey counterpart: their keys stay at zero, and dvs-reg (registering a DVS
 * identity) counts nothing here.
 */
export const USAGE_KEYS_OF_SCOPE: Record<Scope, readonly UsageKey[]> = {
  oidc: ['issued', 'oidc'],
  authcode: ['jwt'],
  'reg-code': ['reg-code'],
  'dvs-auth': ['dvs-auth'],
  'dvs-verify': ['dvs-verify'],
  'dvs-reg': [],
};

/** The usage keys counted under a scope filter (all of them without one). */
export function usageKeysOf(scope: Scope | undefined): readonly UsageKey[] {
  return scope ? USAGE_KEYS_OF_SCOPE[scope] : ['issued', ...USAGE_EVENT_KEYS];
}

/** What a usage call answers: the chart's periods (default), the map's countries, or (global) the top projects. */
export const USAGE_ANSWER_TYPES = ['periods', 'locations', 'projects'] as const;
export type UsageAnswerType = (typeof USAGE_ANSWER_TYPES)[number];

function refineUsage(
  q: { fromDate?: string | undefined; toDate?: string | undefined; periodType?: UsagePeriodType | undefined },
  ctx: z.RefinementCtx,
) {
  refineRange(q, ctx, USAGE_RANGE);
}

const usageQueryFields = {
  fromDate: dateParam().optional(),
  toDate: dateParam().optional(),
  scope: z.enum(SCOPES, { error: 'validation.invalid_value' }).optional(),
  periodType: z.enum(USAGE_PERIOD_TYPES, { error: 'validation.invalid_value' }).optional(),
  /** spec §7: the map sends locationType=country (the only one). */
  locationType: z.enum(['country'], { error: 'validation.invalid_value' }).optional(),
};

/**
 * spec §7 "Usage": GET projects/{project}/usage with fromDate, toDate (default: the current year,
 * UTC; at most about five years), scope, periodType (default: spec §4's rule), locationType and
 * type (`locations` for the map).
 */
export const usageQuerySchema = z
  .object({ ...usageQueryFields, type: z.enum(['periods', 'locations'], { error: 'validation.invalid_value' }).optional() })
  .superRefine(refineUsage);
export type UsageQuery = z.infer<typeof usageQuerySchema>;
export type UsageParams = z.input<typeof usageQuerySchema>;

/** The global dashboard's GET usage (issue 10): the same over every project, and `type=projects` for the top projects. */
export const globalUsageQuerySchema = z
  .object({ ...usageQueryFields, type: z.enum(USAGE_ANSWER_TYPES, { error: 'validation.invalid_value' }).optional() })
  .superRefine(refineUsage);
export type GlobalUsageQuery = z.infer<typeof globalUsageQuerySchema>;
export type GlobalUsageParams = z.input<typeof globalUsageQuerySchema>;

/** The range and buckets of a usage call, or the issues of its query (a 400). */
export function resolveUsagePeriods(
  q: { fromDate?: string | undefined; toDate?: string | undefined; periodType?: UsagePeriodType | undefined },
  now: Date,
): { range: DateRange; periodType: UsagePeriodType; buckets: Date[] } | FieldIssue[] {
  const range = resolveRange(q, now, USAGE_RANGE);
  if (Array.isArray(range)) return range;
  const periodType = q.periodType ?? usagePeriodType(range);
  const buckets = usageBuckets(range, periodType);
  if (buckets.length > MAX_USAGE_BUCKETS[periodType]) {
    return [{ field: 'periodType', code: 'validation.too_many_periods', message: validationText('validation.too_many_periods') }];
  }
  return { range, periodType, buckets };
}

/** `resolveUsagePeriods`, or a 400 `validation_failed` naming the field and the message. */
export function requireUsagePeriods(
  q: { fromDate?: string | undefined; toDate?: string | undefined; periodType?: UsagePeriodType | undefined },
  now: Date,
): { range: DateRange; periodType: UsagePeriodType; buckets: Date[] } {
  const found = resolveUsagePeriods(q, now);
  if (Array.isArray(found)) throw new DomainError('validation_failed', found.map((i) => i.message).join('; '), found);
  return found;
}

const count = () => z.number().int().min(0);

/** spec §3: a period's counts: device registrations (`issued`) and the events by key. */
export const usageKeysSchema = z.object({
  issued: count().describe('Device registrations'),
  events: z.object(Object.fromEntries(USAGE_EVENT_KEYS.map((k) => [k, count()])) as Record<UsageEventKey, ReturnType<typeof count>>),
});
export type UsageKeys = z.infer<typeof usageKeysSchema>;

/** spec §3 "Usage response": totals {issued, sum}, periodType, and every period of the range with its counts (zeros included). */
export const usagePeriodsSchema = z.object({
  totals: z.object({
    issued: count().describe('Device registrations in the range'),
    sum: count().describe('Events in the range: every event key, registrations not included'),
  }),
  periodType: z.enum(USAGE_PERIOD_TYPES),
  periods: z.array(
    z.object({
      period: z.string().describe('The start of the period, ISO 8601 UTC (an hour, a day or a month)'),
      keys: usageKeysSchema,
    }),
  ),
});
export type UsagePeriods = z.infer<typeof usagePeriodsSchema>;

/** spec §3 "Location rows: country and keys.sum": events by country (ISO 3166-1 alpha-2; ZZ unknown), largest first. */
export const usageLocationsSchema = z.object({
  locations: z.array(z.object({ country: z.string(), keys: z.object({ sum: count() }) })),
});
export type UsageLocations = z.infer<typeof usageLocationsSchema>;

/** The global dashboard's top projects by events in the range (issue 10), largest first. */
export const usageProjectsSchema = z.object({
  projects: z.array(z.object({ projectId: z.string(), name: z.string(), issued: count(), sum: count() })),
});
export type UsageProjects = z.infer<typeof usageProjectsSchema>;

/** How many projects `type=projects` lists. */
export const TOP_PROJECTS = 20;

export const usageSchema = z.union([usagePeriodsSchema, usageLocationsSchema]);
export type Usage = z.infer<typeof usageSchema>;
export const globalUsageSchema = z.union([usagePeriodsSchema, usageLocationsSchema, usageProjectsSchema]);
export type GlobalUsage = z.infer<typeof globalUsageSchema>;

/**
 * Issue 37 "Enrollment" (docs/decisions/0050): GET projects/{project}/usage/enrollment over whole
 * UTC days (fromDate, toDate; default the current year, at most about five years).
 */
export const enrollmentQuerySchema = z
  .object({ fromDate: usageQueryFields.fromDate, toDate: usageQueryFields.toDate })
  .superRefine((q, ctx) => refineRange(q, ctx, USAGE_RANGE));
export type EnrollmentQuery = z.infer<typeof enrollmentQuerySchema>;
export type EnrollmentParams = z.input<typeof enrollmentQuerySchema>;

/**
 * The enrollment funnel of a project over a range, from its rollup (enrollment_daily) and its
 * people: the passkey offers after fallback sign-ins and what became of them, the sign-ins by
 * kind, the people who signed in in the range and how many of them hold an active passkey, and the
 * passkey ceremonies the server saw start and complete.
 */
export const enrollmentFunnelSchema = z.object({
  offers: z.object({
    shown: count().describe('Passkey offers shown after a fallback sign-in (event passkey.offer.shown)'),
    created: count().describe('Passkeys created from an offer (event device.register with details.offer)'),
    declined: count().describe('"Not now" (event passkey.offer.declined)'),
  }),
  signIns: z.object({
    passkey: count().describe('Sign-ins with a passkey'),
    fallback: count().describe('Sign-ins by an emailed code, a link, the verification method or a QuickCode'),
  }),
  activeUsers: z.object({
    total: count().describe('People whose last sign-in falls in the range'),
    withPasskey: count().describe('Of them, those holding an active passkey'),
  }),
  ceremonies: z.object({
    started: count().describe('Passkey ceremonies the server asked for: offers shown and passkey answers received'),
    completed: count().describe('Passkeys created and passkey sign-ins'),
  }),
});
export type EnrollmentFunnel = z.infer<typeof enrollmentFunnelSchema>;

/** The rollup's keys (migration 0038), counted with the event that makes each. */
export const ENROLLMENT_KEYS = ['offer_shown', 'offer_created', 'offer_declined', 'sign_in_passkey', 'sign_in_fallback', 'passkey_refused'] as const;
export type EnrollmentKey = (typeof ENROLLMENT_KEYS)[number];
