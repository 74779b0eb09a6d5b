import { currentLanguage, type Language } from './i18n/index.ts';

// Numbers grouped as the console's language writes them (issue 13): 1,000 · 1 000 · 1.000.
const LOCALES: Record<Language, string> = { en: 'en-US', fr: 'fr-FR', ro: 'ro-RO' };
const formats = new Map<Language, Intl.NumberFormat>();

/** `n` with the grouping of `language` (the console's language unless said). */
export function formatNumber(n: number, language: Language = currentLanguage()): string {
  let format = formats.get(language);
  if (!format) {
    format = new Intl.NumberFormat(LOCALES[language]);
    formats.set(language, format);
  }
  return format.format(n);
}
