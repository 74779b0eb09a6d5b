import { isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import type { SecretBox } from '../crypto.ts';
import type { Identity } from '../oidc/pages/site.ts';
import { textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { EndUserEvent } from '../events/end-user-event.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import type { IdentityType, VerificationMethod } from '../people/identity-verifications.repository.ts';

/**
 * A project's identity type and verification method at its issuer (spec §2 User Verification, §3
 * identityType; docs/decisions/0018): page 1 takes an email address or an alphanumeric user id; a
 * new user is verified by an emailed code (codeEmail, login-codes.service.ts), an emailed one-time
 * link (standardEmail) or the project's own backend (fullCustom). Its steps: project-verification.ts.
 */

export type MethodSetting = 'codeEmail' | VerificationMethod;

export interface VerificationSettings {
  method: MethodSetting;
  identityType: IdentityType;
  url: string;
  confirmationURL: string;
  customText: string;
}

/** A link or a custom request is good for this long after it was issued (shown again: renewed). */
export const VERIFICATION_TTL_MS = 10 * 60 * 1000;

/** The method's name in events' details (docs/decisions/0014's `email_code`, and the other two). */
export const METHOD_NAMES: Record<MethodSetting, string> = { codeEmail: 'email_code', standardEmail: 'email_link', fullCustom: 'custom' };

/**
 * An alphanumeric user id: 1 to 64 ASCII letters, digits, '.', '_', '-' or '@', compared without
 * case (it is trimmed and lower-cased first). No spaces or other characters, so an id reads the
 * same in every log, event and page.
 */
export const USER_ID_PATTERN = /^[a-z0-9._@-]{1,64}$/;

/** The settings as stored, with spec §4's rule applied as the console applies it (domain normalizeVerification): Email Link forces the email identity. */
export function verificationSettingsOf(state: IssuerState): VerificationSettings {
  const stored = state.verification;
  const method: MethodSetting = stored.method === 'standardEmail' || stored.method === 'fullCustom' ? stored.method : 'codeEmail';
  const identityType: IdentityType = method !== 'standardEmail' && stored.identityType === 'alphanumeric' ? 'alphanumeric' : 'email';
  return { method, identityType, url: stored.url, confirmationURL: stored.confirmationURL, customText: stored.customText };
}

/** Page 1's field as an identity of `type`, or null. */
export function identityOf(type: IdentityType, typed: string): Identity | null {
  const value = typed.trim().toLowerCase();
  if (type === 'alphanumeric') return USER_ID_PATTERN.test(value) ? { type, value } : null;
  return value && value.length <= TEXT_MAX_LENGTH && isEmail(value) ? { type, value } : null;
}

/** The pages' brand with page 1's field for the identity type and its hint for the method. */
export function withIdentity(brand: PageBrand, settings: VerificationSettings, labelSet: boolean): PageBrand {
  const t = textsOf(brand);
  const idHint = settings.method === 'standardEmail' ? t.linkHint : settings.method === 'fullCustom' ? t.customHint : undefined;
  const alphanumeric = settings.identityType === 'alphanumeric';
  return {
    ...brand,
    idType: settings.identityType,
    ...(alphanumeric && !labelSet ? { idLabel: t.userIdLabel } : {}),
    ...(idHint ? { idHint } : {}),
    ...(settings.method === 'standardEmail' || settings.method === 'fullCustom' ? { verifyBy: settings.method } : {}),
  };
}

/** The keyed hashes a verification is stored and found by (a token or request id alone names nothing in another project). */
export function verificationRefs(secretBox: SecretBox, projectId: string) {
  return {
    token: (token: string) => secretBox.hmac('identity-verification', `${projectId}\n${token}`),
    interaction: (uid: string) => secretBox.hmac('identity-verification-interaction', `${projectId}\n${uid}`),
  };
}

/** A verification event (docs/decisions/0014, scope `oidc`): `verification.sent`, `.confirmed`, `.failed`. */
export function verificationEvent(
  status: EndUserEvent['status'],
  action: 'verification.sent' | 'verification.confirmed' | 'verification.failed',
  identity: string | null,
  method: string,
  details: Record<string, unknown> = {},
): EndUserEvent {
  return { scope: 'oidc', status, action, userId: identity, details: { method, ...details } };
}

/** An address with `name=value` added to its query, or null when it is no URL. */
export function withParameter(address: string, name: string, value: string): string | null {
  try {
    const url = new URL(address);
    url.searchParams.set(name, value);
    return url.href;
  } catch {
    return null;
  }
}
