import { describe, expect, it } from 'vitest';
import {
  applyFormRules,
  isFieldOfPage,
  newProjectSettings,
  normalizeProjectSettings,
  parseServiceAccountKey,
  projectSettingsSchema,
  SETTINGS_PAGE_FIELDS,
  SETTINGS_PAGES,
  valueAtPath,
  withValueAtPath,
  type ProjectSettings,
  type SettingsPage,
} from '../src/index.ts';

// Issue 11: the settings pages apply spec §4 as the user edits, read the push key from its file,
// and list each page's own changes (with earlier values restorable into the form).

const base = newProjectSettings('Shop');
const custom = (patch: Partial<ProjectSettings['verificationOptions']>): ProjectSettings => ({
  ...base,
  verificationOptions: { ...base.verificationOptions, method: 'fullCustom', url: 'https://shop.example/verify', customText: 'Verify', ...patch },
});

describe('the rules of spec §4 as the user edits (applyFormRules)', () => {
  it.each<[string, ProjectSettings, Partial<ProjectSettings>]>([
    [
      'browser login off: primary mobile',
      { ...base, loginOptions: { ...base.loginOptions, browserLoginEnabled: false, primary: 'browserLogin' } },
      {},
    ],
    [
      'standard email: identity type email',
      { ...base, identityType: 'alphanumeric', verificationOptions: { ...base.verificationOptions, method: 'standardEmail' } },
      { identityType: 'email' },
    ],
    ['QuickCode off: its limit off', { ...base, enableRegistrationCode: false, limitRegCodeVerified: true }, { limitRegCodeVerified: false }],
  ])('%s', (_, edited, expected) => {
    const out = applyFormRules(edited);
    expect(out).toMatchObject(expected);
    if (!edited.loginOptions.browserLoginEnabled) expect(out.loginOptions.primary).toBe('mobileLogin');
  });

  it('mobile login off: QR and push off, primary browser; on again: QR on, push as the push setting', () => {
    const withPush = { ...base, pushOptions: { ...base.pushOptions, enabled: true } };
    const off = applyFormRules({ ...withPush, loginOptions: { ...withPush.loginOptions, mobileLoginEnabled: false } });
    expect(off.loginOptions).toMatchObject({ qrCodeEnabled: false, pushAuthEnabled: false, primary: 'browserLogin' });
    const on = applyFormRules({ ...off, loginOptions: { ...off.loginOptions, mobileLoginEnabled: true } });
    expect(on.loginOptions).toMatchObject({ qrCodeEnabled: true, pushAuthEnabled: true });
  });

  it('keeps the custom fields while another method is picked (the form), and the save clears them (the server)', () => {
    const other = { ...custom({}), verificationOptions: { ...custom({}).verificationOptions, method: 'codeEmail' as const } };
    expect(applyFormRules(other).verificationOptions).toMatchObject({ url: 'https://shop.example/verify', customText: 'Verify' });
    expect(normalizeProjectSettings(other).verificationOptions).toMatchObject({ url: '', customText: '' });
  });
});

describe('a Firebase service account key file', () => {
  // The PEM's shape is what the file is checked for (the key itself is the push service's to use).
  const privateKey = '-----BEGIN PRIVATE KEY-----\nMIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEAq7BFUpkGp3+LQmlQ\n-----END PRIVATE KEY-----\n';
  const file = (patch: Record<string, unknown> = {}) =>
    JSON.stringify({
      type: 'service_account',
      project_id: 'shop-push',
      private_key: privateKey,
      client_email: 'sdk@shop-push.iam.gserviceaccount.com',
      ...patch,
    });

  it('is read for its project, account and key', () => {
    expect(parseServiceAccountKey(file())).toEqual({ projectId: 'shop-push', clientEmail: 'sdk@shop-push.iam.gserviceaccount.com', privateKey });
  });

  it.each<[string, string]>([
    ['not JSON', 'not json'],
    ['a JSON array', '[]'],
    ['another kind of credential', file({ type: 'authorized_user' })],
    ['no project', file({ project_id: undefined })],
    ['a project id with capitals', file({ project_id: 'Shop' })],
    ['no account', file({ client_email: 'nobody' })],
    ['no private key', file({ private_key: 'secret' })],
  ])('refuses %s', (_, text) => {
    expect(parseServiceAccountKey(text)).toBeNull();
  });

  it('is what a project document takes as a push key; anything else is the message of validation.service_account_key', () => {
    const withKey = (config: string) => ({
      ...base,
      pushOptions: {
        allowed: true,
        enabled: true,
        projectId: 'shop-push',
        platforms: [{ name: 'firebase' as const, projectId: 'shop-push', config }],
      },
    });
    expect(projectSettingsSchema.safeParse(withKey(file())).success).toBe(true);
    expect(projectSettingsSchema.safeParse(withKey('')).success).toBe(true);
    const bad = projectSettingsSchema.safeParse(withKey('{"private_key":"x"}'));
    expect(bad.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['pushOptions.platforms.0.config', 'validation.service_account_key'],
    ]);
  });
});

describe("each page's fields in the history", () => {
  it.each<[string, SettingsPage, boolean]>([
    ['loginOptions.primary', 'general', true],
    ['enabled', 'general', true],
    ['supportPhone', 'branding', true],
    ['verificationOptions.confirmationURL', 'verification', true],
    ['code_challenge_methods', 'oidc', true],
    ['pushOptions.platforms.0.config', 'mobile', true],
    ['pushOptions.platforms.0.config', 'general', false],
    ['namex', 'general', false],
  ])('%s is on %s: %s', (path, page, on) => {
    expect(isFieldOfPage(path, page)).toBe(on);
  });

  it('gives every editable field of the project document to exactly one page (billing fields to none)', () => {
    const fields = Object.keys(base).filter((f) => !['purchaseOrder', 'referrer'].includes(f));
    for (const field of fields)
      expect(
        SETTINGS_PAGES.filter((p) => SETTINGS_PAGE_FIELDS[p].includes(field)),
        field,
      ).toHaveLength(1);
  });

  it('restores an earlier value at a dotted path, leaving the rest, and refuses a path the document does not have', () => {
    const restored = withValueAtPath(base, 'loginOptions.primary', 'browserLogin');
    expect(restored?.loginOptions).toEqual({ ...base.loginOptions, primary: 'browserLogin' });
    expect(restored?.name).toBe('Shop');
    expect(base.loginOptions.primary).toBe('mobileLogin');
    const withList = { ...base, allowedCORSDomains: ['https://a.example'] };
    expect(withValueAtPath(withList, 'allowedCORSDomains', [])?.allowedCORSDomains).toEqual([]);
    expect(valueAtPath(withList, 'allowedCORSDomains.0')).toBe('https://a.example');
    expect(withValueAtPath(base, 'nothing.here', 1)).toBeNull();
  });
});
