// spec §9: dates display as D Mon YYYY in UTC, with HH:MM:SS for times. Written out by hand rather
// than with Intl: the same text in every browser and locale, and in tests.

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const two = (n: number) => String(n).padStart(2, '0');

/** `1 Mar 2025` (UTC) of an ISO 8601 time; the input itself when it is not a time. */
export function formatUtcDate(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** `09:05:07` (UTC) of an ISO 8601 time; empty when it is not a time. */
export function formatUtcTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

/** `1 Mar 2025 09:05:07` (UTC) of an ISO 8601 time; the input itself when it is not a time. */
export function formatUtcDateTime(iso: string): string {
  const time = formatUtcTime(iso);
  return time ? `${formatUtcDate(iso)} ${time}` : iso;
}

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(at: Date): string {
  return `${at.getUTCFullYear()}-${two(at.getUTCMonth() + 1)}-${two(at.getUTCDate())}`;
}

/** spec §9 "Default ranges": the first and last day (`YYYY-MM-DD`, UTC) of the month of `now`. */
export function currentMonthDays(now: Date): { fromDate: string; toDate: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0));
  return { fromDate: utcDay(first), toDate: utcDay(last) };
}
