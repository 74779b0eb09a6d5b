import { describe, expect, it } from 'vitest';
import {
  applyMeta,
  changedBillingFields,
  keepStoredSecrets,
  redactProjectSecrets,
  changedLockedFields,
  hasLoginMethod,
  isPrimaryEditable,
  newProjectSettings,
  normalizeLoginOptions,
  normalizeProjectSettings,
  type LoginOptions,
  type Project,
} from '../src/index.ts';

const login = (patch: Partial<LoginOptions>): LoginOptions => ({
  mobileLoginEnabled: true,
  browserLoginEnabled: true,
  primary: 'mobileLogin',
  qrCodeEnabled: true,
  pushAuthEnabled: false,
  ...patch,
});

describe('login options (spec §4)', () => {
  it('browser login off forces primary mobileLogin', () => {
    expect(normalizeLoginOptions(login({ browserLoginEnabled: false, primary: 'browserLogin' }), false).primary).toBe('mobileLogin');
  });
  it('mobile login on turns QR on and push follows the push setting', () => {
    const on = normalizeLoginOptions(login({ qrCodeEnabled: false }), true);
    expect(on.qrCodeEnabled).toBe(true);
    expect(on.pushAuthEnabled).toBe(true);
    expect(normalizeLoginOptions(login({ pushAuthEnabled: true }), false).pushAuthEnabled).toBe(false);
  });
  it('mobile login off turns QR and push off and primary becomes browserLogin', () => {
    const off = normalizeLoginOptions(login({ mobileLoginEnabled: false, pushAuthEnabled: true }), true);
    expect(off).toMatchObject({ qrCodeEnabled: false, pushAuthEnabled: false, primary: 'browserLogin' });
  });
  it('at least one login method', () => {
    expect(hasLoginMethod({ mobileLoginEnabled: false, browserLoginEnabled: false })).toBe(false);
    expect(hasLoginMethod({ mobileLoginEnabled: false, browserLoginEnabled: true })).toBe(true);
  });
  it('primary is editable only when both methods are on', () => {
    expect(isPrimaryEditable({ mobileLoginEnabled: true, browserLoginEnabled: true })).toBe(true);
    expect(isPrimaryEditable({ mobileLoginEnabled: true, browserLoginEnabled: false })).toBe(false);
  });
});

describe('verification (spec §4)', () => {
  it('standard email forces identityType email', () => {
    const s = newProjectSettings('x');
    const out = normalizeProjectSettings({
      ...s,
      identityType: 'alphanumeric',
      verificationOptions: { ...s.verificationOptions, method: 'standardEmail' },
    });
    expect(out.identityType).toBe('email');
  });
  it('keeps alphanumeric for other methods', () => {
    const s = newProjectSettings('x');
    const out = normalizeProjectSettings({
      ...s,
      identityType: 'alphanumeric',
      verificationOptions: { ...s.verificationOptions, method: 'codeEmail' },
    });
    expect(out.identityType).toBe('alphanumeric');
  });
  it('registration code off sets limitRegCodeVerified false', () => {
    const s = newProjectSettings('x');
    expect(normalizeProjectSettings({ ...s, enableRegistrationCode: false, limitRegCodeVerified: true }).limitRegCodeVerified).toBe(false);
    expect(normalizeProjectSettings({ ...s, enableRegistrationCode: true, limitRegCodeVerified: true }).limitRegCodeVerified).toBe(true);
  });
});

describe('closing a project (spec §4)', () => {
  const project: Project = { ...newProjectSettings('x'), id: 'p1', enabled: true, purchaseOrder: 'PO-1', referrer: 'r' };
  it('sets enabled false and clears purchaseOrder and referrer', () => {
    expect(applyMeta(project, { enabled: false, purchaseOrder: 'kept?', referrer: 'kept?' })).toMatchObject({
      enabled: false,
      purchaseOrder: '',
      referrer: '',
    });
  });
});

describe('global unlock (spec §6)', () => {
  it('names the locked fields that changed', () => {
    const s = newProjectSettings('x');
    const after = {
      ...s,
      customDomain: 'https://login.example.com',
      name: 'y',
      verificationOptions: { ...s.verificationOptions, confirmationURL: 'https://e.com/c' },
    };
    expect(changedLockedFields(s, after)).toEqual(['customDomain', 'verificationOptions.confirmationURL']);
  });
});

describe('write-only secrets and billing fields', () => {
  const s = newProjectSettings('x');
  const withKey = { ...s, pushOptions: { ...s.pushOptions, platforms: [{ name: 'firebase' as const, projectId: 'fb', config: 'KEY' }] } };
  it('reads never carry the push key', () => {
    expect(redactProjectSecrets(withKey).pushOptions.platforms[0]?.config).toBe('');
  });
  it('an empty key on write keeps the stored one; a new key replaces it', () => {
    expect(keepStoredSecrets(withKey, redactProjectSecrets(withKey)).pushOptions.platforms[0]?.config).toBe('KEY');
    const replaced = {
      ...withKey,
      pushOptions: { ...withKey.pushOptions, platforms: [{ name: 'firebase' as const, projectId: 'fb', config: 'NEW' }] },
    };
    expect(keepStoredSecrets(withKey, replaced).pushOptions.platforms[0]?.config).toBe('NEW');
  });
  it('names changed billing fields', () => {
    expect(changedBillingFields(s, { ...s, purchaseOrder: 'PO', pushOptions: { ...s.pushOptions, allowed: true } })).toEqual([
      'purchaseOrder',
      'pushOptions.allowed',
    ]);
  });
});
