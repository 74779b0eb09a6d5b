import { UNKNOWN_COUNTRY } from '@latchkey/domain';
import { currentLanguage, type Language } from './i18n/index.ts';

const regionNames = new Map<Language, Intl.DisplayNames>();

/**
 * A country's name for people, in the console's language, from its ISO 3166-1 alpha-2 code (the
 * events' and the rollups' `country`): `Netherlands`, `Pays-Bas`, `Țările de Jos`; ZZ (no known
 * location) is `unknown`; a code the browser cannot name stays the code.
 */
export function countryName(code: string, unknown: string, language: Language = currentLanguage()): string {
  if (code === UNKNOWN_COUNTRY) return unknown;
  let names = regionNames.get(language);
  if (!names) {
    names = new Intl.DisplayNames([language], { type: 'region', fallback: 'code' });
    regionNames.set(language, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
