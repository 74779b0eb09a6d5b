import { UNKNOWN_COUNTRY } from '@latchkey/domain';

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/**
 * A country's name for people, from its ISO 3166-1 alpha-2 code (the events' and the rollups'
 * `country`): `Netherlands`; ZZ (no known location) is `unknown`; a code the browser cannot name
 * stays the code.
 */
export function countryName(code: string, unknown: string): string {
  if (code === UNKNOWN_COUNTRY) return unknown;
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}
