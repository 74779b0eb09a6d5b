import {
  MAX_RANGE_DAYS,
  USAGE_EVENT_KEYS,
  type AuditResult,
  type AuditScope,
  type UsageKey,
  type UsagePeriods,
  type UsagePeriodType,
} from '@latchkey/domain';
import { monthName, utcDay } from '../../lib/format-date.ts';
import { currentLanguage, type Language } from '../../lib/i18n/index.ts';
import { routes } from '../../lib/routes.ts';

// What the dashboard makes of a usage answer (issue 10): the chart's series and labels, the links
// from a column or a country to the audit log, and the chart's data as CSV. Everything UTC.

/** spec §9 "Usage event keys" and `issued`, in the chart's order: registrations first, then the event keys. */
export const CHART_KEYS: readonly UsageKey[] = ['issued', ...USAGE_EVENT_KEYS];

/** A period's count of one key. */
export function countOf(keys: UsagePeriods['periods'][number]['keys'], key: UsageKey): number {
  return key === 'issued' ? keys.issued : keys.events[key];
}

/** A period as the chart's axis names it: `14:00` (hour), `5 Mar` (day), `Mar 2025` (month), UTC, in the console's language. */
export function periodLabel(period: string, type: UsagePeriodType, language: Language = currentLanguage()): string {
  const at = new Date(period);
  if (type === 'hour') return `${String(at.getUTCHours()).padStart(2, '0')}:00`;
  if (type === 'day') return `${at.getUTCDate()} ${monthName(at.getUTCMonth(), language)}`;
  return `${monthName(at.getUTCMonth(), language)} ${at.getUTCFullYear()}`;
}

/** The first and last day (`YYYY-MM-DD`, UTC) of the period starting at `period`. */
export function periodDays(period: string, type: UsagePeriodType): { fromDate: string; toDate: string } {
  const at = new Date(period);
  if (type !== 'month') return { fromDate: utcDay(at), toDate: utcDay(at) };
  return { fromDate: utcDay(at), toDate: utcDay(new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 0))) };
}

/**
 * The audit events a usage key counts (docs/decisions/0014 "What counts where"), as the audit log's
 * filters: a registration is an oidc `device.register` `created`, a sign-in an oidc `sign_in`
 * `success`, an ID token an authcode `code.exchanged` `success`, a QuickCode a reg-code
 * `reg_code.issued` `success`. The action (issue 37) keeps out what else succeeds in the same scope:
 * the passkey offer's events, the codes issued beside the exchanges.
 */
const AUDIT_FILTER_OF_KEY: Record<UsageKey, { scope: AuditScope; result?: AuditResult; action?: string }> = {
  issued: { scope: 'oidc', result: 'created', action: 'device.register' },
  oidc: { scope: 'oidc', result: 'success', action: 'sign_in' },
  jwt: { scope: 'authcode', result: 'success', action: 'code.exchanged' },
  'reg-code': { scope: 'reg-code', result: 'success', action: 'reg_code.issued' },
  'dvs-auth': { scope: 'dvs-auth' },
  'dvs-verify': { scope: 'dvs-verify' },
};

function auditLink(projectId: string, filters: Record<string, string>): string {
  return `${routes.projectAudit(projectId)}#${new URLSearchParams(filters).toString()}`;
}

/** The audit log of a column: the events of `key` in the period's days (an hour's column opens its day). */
export function auditLinkOfPeriod(projectId: string, period: string, type: UsagePeriodType, key: UsageKey): string {
  const filter = AUDIT_FILTER_OF_KEY[key];
  return auditLink(projectId, {
    ...periodDays(period, type),
    scope: filter.scope,
    ...(filter.result ? { result: filter.result } : {}),
    ...(filter.action ? { action: filter.action } : {}),
  });
}

/** The audit log answers at most a year: a longer range opens its last 366 days. */
function auditRange(range: { fromDate: string; toDate: string }): { fromDate: string; toDate: string } {
  const last = new Date(`${range.toDate}T00:00:00Z`);
  const earliest = utcDay(new Date(last.getTime() - (MAX_RANGE_DAYS - 1) * 86_400_000));
  return { fromDate: range.fromDate < earliest ? earliest : range.fromDate, toDate: range.toDate };
}

/** The audit log of a country over the dashboard's range. */
export function auditLinkOfCountry(projectId: string, country: string, range: { fromDate: string; toDate: string }): string {
  return auditLink(projectId, { ...auditRange(range), country });
}

/**
 * The audit log of the events of one action (details.action) over the dashboard's range, with a
 * result where the action has several (docs/decisions/0050: the enrollment funnel's figures).
 */
export function auditLinkOfAction(projectId: string, action: string, range: { fromDate: string; toDate: string }, result?: AuditResult): string {
  return auditLink(projectId, { ...auditRange(range), scope: 'oidc', ...(result ? { result } : {}), action });
}

/** `part` of `whole` as a whole percentage, or null where there is no whole. */
export function shareOf(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 100) : null;
}

/** The chart's data as CSV (RFC 4180; every cell is a date or a number): one row a period, one column a key. */
export function usageCsv(usage: UsagePeriods): string {
  const rows = [['period', ...CHART_KEYS].join(',')];
  for (const p of usage.periods) rows.push([p.period, ...CHART_KEYS.map((k) => String(countOf(p.keys, k)))].join(','));
  return `${rows.join('\r\n')}\r\n`;
}
