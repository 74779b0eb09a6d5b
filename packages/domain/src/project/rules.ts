import { PIN_LENGTH_DEFAULT } from '../constants.ts';
import { IMPORTED_PASSWORD_DAYS, type LoginOptions, type Project, type ProjectMeta, type ProjectSettings } from './schema.ts';

/** Settings of a project created with a name only (spec §7: name, pinLength, creator's email). */
export function newProjectSettings(name: string, pinLength: number = PIN_LENGTH_DEFAULT): ProjectSettings {
  return {
    name,
    customDomain: '',
    customMobileDomain: '',
    loginOptions: {
      mobileLoginEnabled: true,
      browserLoginEnabled: true,
      primary: 'mobileLogin',
      qrCodeEnabled: true,
      pushAuthEnabled: false,
    },
    pinLength,
    enableBrowserWarning: false,
    allowedCORSDomains: [],
    logoUrl: '',
    displayName: '',
    midentityTheme: 'classic',
    midentityLanguage: 'en',
    helpUrl: '',
    supportEmail: '',
    supportPhone: '',
    // docs/decisions/0018: the emailed code, what every project's issuer did before the other methods existed.
    verificationOptions: { method: 'codeEmail', url: '', confirmationURL: '', customText: '', identityTypeLabel: '' },
    identityType: 'email',
    enableRegistrationCode: false,
    limitRegCodeVerified: false,
    // docs/decisions/0050: offered after each fallback sign-in; required after 3 only when chosen.
    passkeyEnrollment: { mode: 'offer', requireAfter: 3 },
    emailRecoveryDelay: 'none',
    importedPasswordDays: IMPORTED_PASSWORD_DAYS.default,
    mobileAndroidLocation: '',
    mobileIOSLocation: '',
    associationAndroid: '',
    associationIOS: '',
    pushOptions: { allowed: false, enabled: false, projectId: '', platforms: [] },
    purchaseOrder: '',
    referrer: '',
  };
}

/**
 * spec §4 "Login options": if browser login is off, primary is mobileLogin; if mobile login is on,
 * QR code is on and push auth follows the push setting; if mobile login is off, QR and push are off
 * and primary is browserLogin.
 */
export function normalizeLoginOptions(options: LoginOptions, pushEnabled: boolean): LoginOptions {
  const next = { ...options };
  if (!next.browserLoginEnabled) next.primary = 'mobileLogin';
  if (next.mobileLoginEnabled) {
    next.qrCodeEnabled = true;
    next.pushAuthEnabled = pushEnabled;
  } else {
    next.qrCodeEnabled = false;
    next.pushAuthEnabled = false;
    next.primary = 'browserLogin';
  }
  return next;
}

/** spec §5: at least one of mobile or browser login. */
export function hasLoginMethod(options: Pick<LoginOptions, 'mobileLoginEnabled' | 'browserLoginEnabled'>): boolean {
  return options.mobileLoginEnabled || options.browserLoginEnabled;
}

/** spec §4: the primary selector is editable only when both methods are enabled. */
export function isPrimaryEditable(options: Pick<LoginOptions, 'mobileLoginEnabled' | 'browserLoginEnabled'>): boolean {
  return options.mobileLoginEnabled && options.browserLoginEnabled;
}

/**
 * spec §4 "Verification": the standard email method forces identityType email; the registration
 * code off forces limitRegCodeVerified off. Applied as the user edits (the form) and on every write.
 */
export function applyVerificationRules(settings: ProjectSettings): ProjectSettings {
  const next: ProjectSettings = { ...settings };
  if (next.verificationOptions.method === 'standardEmail') next.identityType = 'email';
  if (!next.enableRegistrationCode) next.limitRegCodeVerified = false;
  return next;
}

/** spec §5: the custom verification fields belong to fullCustom alone; another method stores them empty. */
export function isCustomVerification(settings: Pick<ProjectSettings, 'verificationOptions'>): boolean {
  return settings.verificationOptions.method === 'fullCustom';
}

/**
 * `applyVerificationRules`, and (spec §5: custom fields are editable only for fullCustom) the
 * custom URL and text kept empty for other methods. The form keeps what the user typed there until
 * the save, so switching the method back and forth loses nothing.
 */
export function normalizeVerification(settings: ProjectSettings): ProjectSettings {
  const next = applyVerificationRules(settings);
  if (isCustomVerification(next)) return next;
  return { ...next, verificationOptions: { ...next.verificationOptions, url: '', customText: '' } };
}

/** The rules of spec §4 as the user edits a settings form: login options and verification, nothing cleared. */
export function applyFormRules(settings: ProjectSettings): ProjectSettings {
  const withVerification = applyVerificationRules(settings);
  return { ...withVerification, loginOptions: normalizeLoginOptions(withVerification.loginOptions, withVerification.pushOptions.enabled) };
}

/** All the derived rules of spec §4 applied to a settings document. */
export function normalizeProjectSettings(settings: ProjectSettings): ProjectSettings {
  const withVerification = normalizeVerification(settings);
  return {
    ...withVerification,
    loginOptions: normalizeLoginOptions(withVerification.loginOptions, withVerification.pushOptions.enabled),
  };
}

/** Fields only an account with a global permission may change (spec §6 "Global unlock"). */
export const GLOBAL_UNLOCK_FIELDS = ['customDomain', 'customMobileDomain', 'associationAndroid', 'associationIOS'] as const;

/** The names of locked fields whose value differs between two settings documents. */
export function changedLockedFields(before: ProjectSettings, after: ProjectSettings): string[] {
  const changed: string[] = GLOBAL_UNLOCK_FIELDS.filter((f) => before[f] !== after[f]);
  if (before.verificationOptions.confirmationURL !== after.verificationOptions.confirmationURL) {
    changed.push('verificationOptions.confirmationURL');
  }
  return changed;
}

/** spec §4: closing sets enabled false and clears purchaseOrder and referrer. */
export function applyMeta(project: Project, meta: ProjectMeta): Project {
  if (!meta.enabled) return { ...project, enabled: false, purchaseOrder: '', referrer: '' };
  return { ...project, enabled: true, purchaseOrder: meta.purchaseOrder, referrer: meta.referrer };
}

/**
 * The push service-account key is a secret: it is written, never read back (the bar: secrets are
 * shown once). Reads carry an empty `config`; a write with an empty `config` keeps the stored one.
 */
export function redactProjectSecrets<T extends Pick<ProjectSettings, 'pushOptions'>>(project: T): T {
  return {
    ...project,
    pushOptions: {
      ...project.pushOptions,
      platforms: project.pushOptions.platforms.map((p) => ({ ...p, config: '' })),
    },
  };
}

export function keepStoredSecrets(before: ProjectSettings, after: ProjectSettings): ProjectSettings {
  return {
    ...after,
    pushOptions: {
      ...after.pushOptions,
      platforms: after.pushOptions.platforms.map((p) => {
        if (p.config !== '') return p;
        const stored = before.pushOptions.platforms.find((s) => s.name === p.name);
        return stored ? { ...p, config: stored.config } : p;
      }),
    },
  };
}

/** Billing and entitlement fields: only an administrator of all projects changes them. */
export function changedBillingFields(before: ProjectSettings, after: ProjectSettings): string[] {
  const changed: string[] = [];
  if (before.purchaseOrder !== after.purchaseOrder) changed.push('purchaseOrder');
  if (before.referrer !== after.referrer) changed.push('referrer');
  if (before.pushOptions.allowed !== after.pushOptions.allowed) changed.push('pushOptions.allowed');
  return changed;
}
