import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable opaque value: `bytes` random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * `bytes` random bytes as lower-case base32 (8 bits per byte, 5 per character): safe in URLs,
 * in path segments and in cst:{project}:… strings. 10 bytes give 16 characters (80 bits).
 */
export function randomBase32(bytes: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of randomBytes(bytes)) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Constant-time string comparison (XSRF tokens, code hashes). */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
