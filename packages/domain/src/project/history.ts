import { z } from 'zod';
import { cleanString } from '../validation/fields.ts';

// Issue 11 "Settings history": every save of a settings page is an audit event (docs/decisions/0014
// "Management actions": details.changes holds each changed field's before and after); each page
// lists the changes of its own fields from those events, so there is one record of truth.

export const SETTINGS_PAGES = ['general', 'branding', 'verification', 'oidc', 'mobile'] as const;
export type SettingsPage = (typeof SETTINGS_PAGES)[number];

/**
 * The fields each page edits, as the changes name them (a nested field's path starts with its
 * parent: `loginOptions` covers `loginOptions.primary`). Closing writes `enabled` (General).
 */
export const SETTINGS_PAGE_FIELDS: Record<SettingsPage, readonly string[]> = {
  general: [
    'name',
    'midentityLanguage',
    'midentityTheme',
    'pinLength',
    'customDomain',
    'allowedCORSDomains',
    'loginOptions',
    'enableBrowserWarning',
    'enableRegistrationCode',
    'limitRegCodeVerified',
    'passkeyEnrollment',
    'emailRecoveryDelay',
    'importedPasswordDays',
    'enabled',
  ],
  branding: ['supportEmail', 'supportPhone', 'helpUrl', 'logoUrl', 'displayName'],
  verification: ['verificationOptions', 'identityType'],
  oidc: [
    'id_token_signing_alg',
    'token_endpoint_auth_methods',
    'code_challenge_methods',
    'allow_pkce_only_token_exchange',
    'require_pkce_for_confidential_clients',
    'access_token_ttl',
    'id_token_ttl',
    'refresh_token_idle_ttl',
    'refresh_token_absolute_ttl',
    // A rotation: the signing key's id before and after (issue 22).
    'signing_key',
    // An issuer move to the project's own host: its address before and after (docs/decisions/0047).
    'address',
  ],
  mobile: ['customMobileDomain', 'associationAndroid', 'associationIOS', 'mobileAndroidLocation', 'mobileIOSLocation', 'pushOptions'],
};

/** The audit actions that change settings (docs/decisions/0014 "Management actions"). */
export const SETTINGS_ACTIONS = [
  'project.create',
  'project.update',
  'project.close',
  'project.reopen',
  'project.meta',
  'issuer.update',
  'issuer.keys.rotate',
  'issuer.move',
] as const;
export type SettingsAction = (typeof SETTINGS_ACTIONS)[number];

/** Is a changed field (a dotted path) one of the page's? */
export function isFieldOfPage(path: string, page: SettingsPage): boolean {
  return SETTINGS_PAGE_FIELDS[page].some((field) => path === field || path.startsWith(`${field}.`));
}

/** A secret's change, recorded without its values. */
export const SECRET_CHANGED = '(changed)';

const fieldChangeSchema = z.union([z.object({ before: z.unknown(), after: z.unknown() }), z.literal(SECRET_CHANGED)]);

export const settingsChangeSchema = z.object({
  id: z.string(),
  createdAt: z.string().describe('When, ISO 8601 UTC'),
  action: z.enum(SETTINGS_ACTIONS),
  account: z.string().nullable().describe('Who: the acting account (email, or a service account id)'),
  changes: z.record(z.string(), fieldChangeSchema).describe("The page's fields this save changed: before and after, or (changed) for a secret"),
});
export type SettingsChange = z.infer<typeof settingsChangeSchema>;

export const SETTINGS_HISTORY_PAGE_SIZE = 20;

/** GET projects/{project}/settings/history: one page's changes, newest first, 20 at a time (`cursor`: the answer's nextCursor). */
export const settingsHistoryQuerySchema = z.object({
  page: z.enum(SETTINGS_PAGES, { error: 'validation.invalid_value' }),
  cursor: cleanString(200).optional(),
});
export type SettingsHistoryQuery = z.infer<typeof settingsHistoryQuerySchema>;

export const settingsHistorySchema = z.object({
  list: z.array(settingsChangeSchema),
  nextCursor: z.string().nullable().describe('Send as cursor for the changes before these; null: no more'),
});
export type SettingsHistory = z.infer<typeof settingsHistorySchema>;

/** The value at a dotted path of a document (a position for an array), or undefined. */
export function valueAtPath(doc: unknown, path: string): unknown {
  let at: unknown = doc;
  for (const segment of path.split('.')) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string, unknown>)[segment];
  }
  return at;
}

/**
 * A copy of `doc` with `value` at a dotted path (issue 11: a history entry's value restored into
 * the form). The path must exist in `doc`; null when it does not.
 */
export function withValueAtPath<T>(doc: T, path: string, value: unknown): T | null {
  const [head, ...rest] = path.split('.');
  if (head === undefined || typeof doc !== 'object' || doc === null || !(head in doc)) return null;
  const current = (doc as Record<string, unknown>)[head];
  const next = rest.length === 0 ? value : withValueAtPath(current, rest.join('.'), value);
  if (next === null && rest.length > 0) return null;
  if (Array.isArray(doc)) {
    const copy = [...doc];
    copy[Number(head)] = next;
    return copy as T;
  }
  return { ...doc, [head]: next } as T;
}
