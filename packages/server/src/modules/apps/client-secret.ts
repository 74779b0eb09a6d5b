import { createHash, randomBytes } from 'node:crypto';
import { randomBase32, type SecretBox } from '../../crypto.ts';

/** 16 characters of base32 (80 random bits), like project ids: an application id names, it does not guard. */
export function newApplicationId(): string {
  return randomBase32(10);
}

/** 128 random bits, base64url: the client id is public but must not be guessable or enumerable. */
export function newClientId(): string {
  return randomBytes(16).toString('base64url');
}

/** 256 random bits from the CSPRNG, base64url: the client secret, answered once and never stored. */
export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A client secret as stored before issue 22: its SHA-256, hex. A fast hash was enough against
 * guessing (a 256-bit random secret cannot be guessed, nor its hash reversed, however fast the hash);
 * it is still accepted, then stored keyed. No slow password hash is needed for either form.
 */
export function legacyHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Stored keyed hashes start so; a legacy SHA-256 is 64 hex digits. */
export const KEYED = 'k1:';

/**
 * A client secret as stored: an HMAC under the master key (docs/decisions/0028), so a copy of the
 * database alone cannot even check a guess against it.
 */
export const storedHashWith =
  (secretBox: Pick<SecretBox, 'hmac'>) =>
  (secret: string): string =>
    `${KEYED}${secretBox.hmac('client-secret', secret)}`;
