import { randomBase32, type SecretBox } from '../crypto.ts';
import { RECOVERY_TEXTS, type RecoveryTexts } from './pages/recovery-texts.ts';
import type { PageBrand } from './pages/views.ts';

/**
 * Recovery codes and recovery links as values (issue 37, docs/decisions/0051): how a code is made,
 * shown, read back from what a person typed, and kept (a keyed hash); the texts of recovery. What
 * uses them: people/account-recovery.ts, the sign-in page's "Use a recovery code"
 * (passkey-steps/recovery-code-step.ts), the account page's recovery steps.
 */

/** How many codes a set holds. */
export const RECOVERY_CODES_PER_SET = 10;
/** A code is 10 base32 characters: 50 bits, so the per-client try limits make guessing hopeless. */
const CODE_LENGTH = 10;

export const recoveryTextsOf = (brand: PageBrand): RecoveryTexts => RECOVERY_TEXTS[brand.language];

/**
 * The sign-ins without a passkey that a person holding passkeys is told of, and after which a new
 * passkey waits out the project's emailRecoveryDelay: the emailed code or link, and the project's
 * own verification (`custom`). A recovery code or a re-enrollment link is a proof of its own.
 */
const RECOVERY_WATCHED = new Set(['email_code', 'email_link', 'custom']);
export const isWatchedFallback = (method: string): boolean => RECOVERY_WATCHED.has(method);

/** A new code, as stored and compared (lower-case base32). */
export const newRecoveryCode = (): string => randomBase32(7).slice(0, CODE_LENGTH);

/** A code as the person is shown it: ABCDE-23456. */
export const shownRecoveryCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`.toUpperCase();

/** What a person typed as a code (any case, spaces or hyphens, 0 for O), or null when it cannot be one. */
export function recoveryCodeOf(typed: string): string | null {
  const code = typed
    .toLowerCase()
    .replace(/[\s-]+/g, '')
    .replaceAll('0', 'o');
  return new RegExp(`^[a-z2-7]{${CODE_LENGTH}}$`).test(code) ? code : null;
}

/** What a code is kept as: keyed with the server's key (a database copy yields no code), per project and person. */
export const recoveryCodeHash = (secretBox: SecretBox, projectId: string, userId: string, code: string): string =>
  secretBox.hmac('recovery-code', `${projectId}\n${userId}\n${code}`);

/** What a link's token is kept as ("This wasn't me", a re-enrollment link). */
export const recoveryTokenHash = (secretBox: SecretBox, what: 'stop' | 'reenroll', projectId: string, token: string): string =>
  secretBox.hmac(`recovery-${what}`, `${projectId}\n${token}`);

/** A time in the notices' and pages' language, in UTC. */
export const untilText = (brand: PageBrand, at: Date): string =>
  `${new Intl.DateTimeFormat(brand.language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at)} UTC`;
