import { z } from 'zod';
import { LANGUAGES, PIN_LENGTH_DEFAULT, THEMES } from '../constants.ts';
import { parseServiceAccountKey } from './push.ts';
import {
  cleanString,
  optionalEmail,
  optionalPhone,
  optionalUri,
  optionalUrl,
  pinLength,
  requiredEmail,
  requiredText,
  requiredUri,
  text,
} from '../validation/fields.ts';

const bool = () => z.boolean({ error: 'validation.invalid_value' });
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values, { error: 'validation.invalid_value' });

export const LOGIN_PRIMARY = ['mobileLogin', 'browserLogin'] as const;
export const VERIFICATION_METHODS = ['standardEmail', 'codeEmail', 'fullCustom'] as const;
export const IDENTITY_TYPES = ['email', 'alphanumeric'] as const;
/**
 * Issue 37, docs/decisions/0051: how long a new passkey waits after an email-only sign-in of a person
 * who holds passkeys ("This wasn't me" in the notice ends it first); none by default.
 */
export const EMAIL_RECOVERY_DELAYS = ['none', '24h', '72h'] as const;
export type EmailRecoveryDelay = (typeof EMAIL_RECOVERY_DELAYS)[number];
export const EMAIL_RECOVERY_DELAY_MS: Record<EmailRecoveryDelay, number> = { none: 0, '24h': 24 * 3600_000, '72h': 72 * 3600_000 };

export const loginOptionsSchema = z.object({
  mobileLoginEnabled: bool(),
  browserLoginEnabled: bool(),
  primary: oneOf(LOGIN_PRIMARY),
  qrCodeEnabled: bool(),
  pushAuthEnabled: bool(),
});
export type LoginOptions = z.infer<typeof loginOptionsSchema>;

/**
 * Issue 37 "Enrollment" (docs/decisions/0050): after a fallback sign-in (code, link, verification,
 * QuickCode) the person is offered a passkey on that device: `off`, `offer` ("Not now" remembered a
 * while), or `require` once they signed in `requireAfter` times by a fallback (1–20).
 */
export const PASSKEY_ENROLLMENT_MODES = ['off', 'offer', 'require'] as const;
export const PASSKEY_ENROLLMENT_AFTER_MAX = 20;
export const passkeyEnrollmentSchema = z.object({
  mode: oneOf(PASSKEY_ENROLLMENT_MODES),
  requireAfter: z
    .number({ error: 'validation.not_a_number' })
    .int({ error: 'validation.not_a_number' })
    .min(1, { error: 'validation.out_of_range' })
    .max(PASSKEY_ENROLLMENT_AFTER_MAX, { error: 'validation.out_of_range' }),
});
export type PasskeyEnrollment = z.infer<typeof passkeyEnrollmentSchema>;

/**
 * Issue 37 "Migration" (docs/decisions/0052): the days an imported password hash is kept — its one
 * sign-in must happen within them; the import of a file reads it as it writes each chunk.
 */
export const IMPORTED_PASSWORD_DAYS = { default: 90, min: 1, max: 365 } as const;
const importedPasswordDays = () =>
  z
    .number({ error: 'validation.not_a_number' })
    .int({ error: 'validation.not_a_number' })
    .min(IMPORTED_PASSWORD_DAYS.min, { error: 'validation.out_of_range' })
    .max(IMPORTED_PASSWORD_DAYS.max, { error: 'validation.out_of_range' });

export const verificationOptionsSchema = z.object({
  method: oneOf(VERIFICATION_METHODS),
  url: optionalUri(),
  confirmationURL: optionalUri(),
  customText: text(),
  identityTypeLabel: text(),
});
export type VerificationOptions = z.infer<typeof verificationOptionsSchema>;

export const pushPlatformSchema = z.object({
  name: z.literal('firebase', { error: 'validation.invalid_value' }),
  projectId: text(),
  // The service account key file's text; empty: keep the stored one (reads always answer it empty).
  config: cleanString(100_000).refine((config) => config === '' || parseServiceAccountKey(config) !== null, {
    error: 'validation.service_account_key',
  }),
});

export const pushOptionsSchema = z.object({
  allowed: bool(),
  enabled: bool(),
  projectId: text(),
  platforms: z.array(pushPlatformSchema).max(4),
});

/** The editable document of a project: the body of PUT projects/{id} (spec §7) less its id. */
const projectSettingsShape = z.object({
  name: requiredText(),
  customDomain: optionalUri(),
  customMobileDomain: optionalUri(),
  loginOptions: loginOptionsSchema,
  pinLength: pinLength(),
  enableBrowserWarning: bool(),
  allowedCORSDomains: z.array(requiredUri()).max(100),
  logoUrl: optionalUrl(),
  displayName: text(),
  midentityTheme: oneOf(THEMES),
  midentityLanguage: oneOf(LANGUAGES),
  helpUrl: optionalUrl(),
  supportEmail: optionalEmail(),
  supportPhone: optionalPhone(),
  verificationOptions: verificationOptionsSchema,
  identityType: oneOf(IDENTITY_TYPES),
  enableRegistrationCode: bool(),
  limitRegCodeVerified: bool(),
  passkeyEnrollment: passkeyEnrollmentSchema,
  // A project saved before the setting existed (or a client that does not send it) has none.
  emailRecoveryDelay: oneOf(EMAIL_RECOVERY_DELAYS).default('none'),
  // Likewise: a project saved before it existed keeps its imported hashes the default days.
  importedPasswordDays: importedPasswordDays().default(IMPORTED_PASSWORD_DAYS.default),
  mobileAndroidLocation: optionalUrl(),
  mobileIOSLocation: optionalUrl(),
  associationAndroid: cleanString(100_000),
  associationIOS: cleanString(100_000),
  pushOptions: pushOptionsSchema,
  purchaseOrder: text(),
  referrer: text(),
});

// spec §5: at least one login method; with push enabled, a Firebase project id is required.
function checkProjectSettings(settings: z.infer<typeof projectSettingsShape>, ctx: z.RefinementCtx): void {
  if (!settings.loginOptions.mobileLoginEnabled && !settings.loginOptions.browserLoginEnabled) {
    ctx.addIssue({ code: 'custom', path: ['loginOptions'], message: 'validation.login_method' });
  }
  if (settings.pushOptions.enabled && settings.pushOptions.projectId === '') {
    ctx.addIssue({ code: 'custom', path: ['pushOptions', 'projectId'], message: 'validation.required' });
  }
}

export const projectSettingsSchema = projectSettingsShape.superRefine(checkProjectSettings);
export type ProjectSettings = z.infer<typeof projectSettingsSchema>;

/** PUT projects/{id}: the whole project (spec §7). `enabled` is changed only through /meta. */
export const projectUpdateSchema = projectSettingsShape
  .extend({
    id: cleanString(100).optional(),
    enabled: z.boolean().optional(),
  })
  .superRefine(checkProjectSettings);
export type ProjectUpdate = z.infer<typeof projectUpdateSchema>;

export const projectSchema = projectSettingsShape.extend({
  id: z.string(),
  enabled: z.boolean(),
});
export type Project = z.infer<typeof projectSchema>;

/** What the project list uses (spec §3). */
export const projectSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  logoUrl: z.string(),
  enabled: z.boolean(),
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

// spec §5: project name required, max 250; a new project carries name, pinLength and the creator's email.
export const projectCreateSchema = z.object({
  name: requiredText(),
  pinLength: pinLength().default(PIN_LENGTH_DEFAULT),
  email: requiredEmail(),
});
export type ProjectCreate = z.input<typeof projectCreateSchema>;

export const projectCreatedSchema = z.object({ id: z.string() });

/** PUT projects/{id}/meta (spec §7): closing, or reopening by a global administrator. */
export const projectMetaSchema = z.object({
  enabled: bool(),
  purchaseOrder: text().default(''),
  referrer: text().default(''),
});
export type ProjectMeta = z.infer<typeof projectMetaSchema>;
