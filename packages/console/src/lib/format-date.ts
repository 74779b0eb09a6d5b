import { currentLanguage, type Language } from './i18n/index.ts';

// spec §9: dates display as D Mon YYYY in UTC, with HH:MM:SS for times, the month abbreviated in the
// console's language (issue 13). Written out by hand rather than with Intl: the same text in every
// browser, and in tests. The abbreviations are CLDR's (format, abbreviated).
const MONTHS: Record<Language, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  fr: ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'],
  ro: ['ian.', 'feb.', 'mar.', 'apr.', 'mai', 'iun.', 'iul.', 'aug.', 'sept.', 'oct.', 'nov.', 'dec.'],
};

/** The abbreviated name of a month (0 = January) in `language`. */
export function monthName(month: number, language: Language = currentLanguage()): string {
  return MONTHS[language][month] ?? '';
}

const two = (n: number) => String(n).padStart(2, '0');

/** `1 Mar 2025` (`1 mars 2025`, `1 mar. 2025`; UTC) of an ISO 8601 time; the input itself when it is not a time. */
export function formatUtcDate(iso: string, language: Language = currentLanguage()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  return `${at.getUTCDate()} ${monthName(at.getUTCMonth(), language)} ${at.getUTCFullYear()}`;
}

/** `09:05:07` (UTC) of an ISO 8601 time; empty when it is not a time. */
export function formatUtcTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  return `${two(at.getUTCHours())}:${two(at.getUTCMinutes())}:${two(at.getUTCSeconds())}`;
}

/** `1 Mar 2025 09:05:07` (UTC) of an ISO 8601 time; the input itself when it is not a time. */
export function formatUtcDateTime(iso: string, language: Language = currentLanguage()): string {
  const time = formatUtcTime(iso);
  return time ? `${formatUtcDate(iso, language)} ${time}` : iso;
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
