import { z } from 'zod';
import { LANGUAGES } from '../constants.ts';
import { cleanString } from '../validation/fields.ts';

/** A language the console speaks (spec §9); null: none chosen, the browser's language holds. */
const consoleLanguage = z.enum(LANGUAGES, { error: 'validation.invalid_value' }).nullable();

/** The signed-in account (spec §3), with the console language it chose in the top bar (issue 13). */
export const sessionAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  permissions: z.array(z.string()),
  language: consoleLanguage,
});

/** The console language the signed-in account chooses (null: follow the browser again). */
export const accountLanguageSchema = z.object({ language: consoleLanguage });
export type AccountLanguage = z.infer<typeof accountLanguageSchema>;
export type SessionAccount = z.infer<typeof sessionAccountSchema>;

export const authUrlQuerySchema = z.object({
  redirectURL: cleanString(2000).min(1, { error: 'validation.required' }),
  /** The path to return to after sign-in (spec §7 "state_next"). */
  state_next: cleanString(2000).optional(),
});
export const authUrlResponseSchema = z.object({ authUrl: z.string() });

export const loginBodySchema = z.object({
  code: cleanString(4000).min(1, { error: 'validation.required' }),
  redirectURL: cleanString(2000).min(1, { error: 'validation.required' }),
  /** The OAuth `state` the provider returned with the code. */
  state: cleanString(200).optional(),
});
/** The path the sign-in began on, if any. */
export const loginResponseSchema = z.object({ next: z.string().nullable() });

export const logoutResponseSchema = z.object({ redirectUrl: z.string() });

// A placeholder origin: the rule is about where a browser would go, not about any real host.
const NEXT_PATH_BASE = 'https://console.invalid';

/**
 * The console's own path a sign-in may return to (spec §7 "state_next"), as a browser would read it
 * — or null when it could lead anywhere else. Control characters are refused outright: browsers
 * drop tabs and newlines from URLs, so `/\t/evil.example` becomes `//evil.example`. What is left is
 * parsed by the WHATWG URL rules against an origin of our own and must stay on that origin with a
 * path of one leading slash (so `/\evil`, `/.//evil` and `//evil` are out); the answer is the
 * normalised path, query and fragment.
 */
export function normaliseNextPath(next: string): string | null {
  // C0 controls, DEL and C1 controls.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(next)) return null; // eslint-disable-line no-control-regex -- finding control characters is the point
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  let url: URL;
  try {
    url = new URL(next, NEXT_PATH_BASE);
  } catch {
    return null;
  }
  if (url.origin !== NEXT_PATH_BASE || !url.pathname.startsWith('/') || url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Which of the console's own paths may be a return target (see normaliseNextPath). */
export function isSafeNextPath(next: string): boolean {
  return normaliseNextPath(next) !== null;
}

/** Settings of the deployment the console shows (README: DOCS_URL, SUPPORT_URL). */
export const consoleConfigSchema = z.object({
  docsUrl: z.string(),
  supportUrl: z.string(),
  registration: z.enum(['open', 'closed']),
});
export type ConsoleConfig = z.infer<typeof consoleConfigSchema>;
