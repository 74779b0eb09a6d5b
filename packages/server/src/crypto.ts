import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomFillSync, timingSafeEqual } from 'node:crypto';

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolUsed = POOL_BYTES;

/**
 * `bytes` random bytes from the CSPRNG, drawn from a pool refilled 4 KiB at a time (as Node's own
 * randomUUID does): one call into OpenSSL — and the system call of its fork check, costly on this
 * kind of machine — per 4 KiB instead of per value (issue 38: a dozen a sign-in). Each byte is
 * handed out once, as a copy, and wiped from the pool; more than 256 bytes come straight from randomBytes.
 */
export function randomBytesPooled(bytes: number): Buffer {
  if (!Number.isInteger(bytes) || bytes < 0) throw new RangeError(`random bytes: ${bytes} is not a count of bytes`);
  if (bytes > 256) return randomBytes(bytes);
  if (poolUsed + bytes > POOL_BYTES) {
    randomFillSync(pool);
    poolUsed = 0;
  }
  const out = Buffer.from(pool.subarray(poolUsed, poolUsed + bytes));
  pool.fill(0, poolUsed, poolUsed + bytes);
  poolUsed += bytes;
  return out;
}

/** An unguessable opaque value: `bytes` random bytes, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytesPooled(bytes).toString('base64url');
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
  for (const byte of randomBytesPooled(bytes)) {
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

/**
 * Keyed hashing and authenticated encryption under the deployment's master key (README "Secrets
 * and backups"), which never lives in the database: a copy of the database alone lets nobody sign
 * in or forge anything. Each purpose gets its own subkey (HKDF-SHA-256), so a value hashed or
 * sealed for one purpose is worthless for another.
 */
export interface SecretBox {
  /** Keyed hash (HMAC-SHA-256, base64url) of `value` for `purpose`: for lookups and comparisons. */
  hmac(purpose: string, value: string): string;
  /** Encrypts `plaintext` (AES-256-GCM) bound to `context` (e.g. the row it is stored in). */
  seal(plaintext: string, context: string): string;
  /** The plaintext of `sealed`; throws when it was changed, belongs to another context or another key. */
  open(sealed: string, context: string): string;
  sealJson(value: unknown, context: string): string;
  openJson<T>(sealed: string, context: string): T;
  /** True when `sealed` was made under a previous key and should be sealed again (SECRET_KEY_PREVIOUS). */
  isStale(sealed: string): boolean;
  /**
   * True when `value` has the form `seal` gives (under any key): tells a sealed value from plain
   * text an earlier version stored, without opening it.
   */
  isSealed(value: string): boolean;
}

export const SECRET_KEY_BYTES = 32;
const SEALED_PREFIX = 'lk1';
// lk1.{key id: 6 bytes}.{iv: 12 bytes}.{ciphertext}.{GCM tag: 16 bytes}, each part base64url.
const SEALED_FORM = new RegExp(`^${SEALED_PREFIX}\\.[\\w-]{8}\\.[\\w-]{16}\\.[\\w-]*\\.[\\w-]{22}$`);

function subkey(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `latchkey:${purpose}`, SECRET_KEY_BYTES));
}

/** A short public name of a master key, stored with each sealed value so the right key opens it. */
function keyId(master: Buffer): string {
  return subkey(master, 'key-id').subarray(0, 6).toString('base64url');
}

/**
 * `current` seals and keys every hash; `previous` keys (SECRET_KEY_PREVIOUS) still open what was
 * sealed under them, until start-up has sealed it again.
 */
export function createSecretBox(current: Buffer, previous: readonly Buffer[] = []): SecretBox {
  for (const key of [current, ...previous]) {
    if (key.length !== SECRET_KEY_BYTES) throw new Error(`a secret key is ${SECRET_KEY_BYTES} bytes`);
  }
  const currentId = keyId(current);
  const encryptionKeys = new Map<string, Buffer>();
  for (const key of [...previous].reverse()) encryptionKeys.set(keyId(key), subkey(key, 'encryption'));
  encryptionKeys.set(currentId, subkey(current, 'encryption'));
  const hmacKeys = new Map<string, Buffer>();

  const box: SecretBox = {
    hmac(purpose, value) {
      let key = hmacKeys.get(purpose);
      if (!key) {
        key = subkey(current, `hmac:${purpose}`);
        hmacKeys.set(purpose, key);
      }
      return createHmac('sha256', key).update(value, 'utf8').digest('base64url');
    },
    seal(plaintext, context) {
      const iv = randomBytesPooled(12);
      const cipher = createCipheriv('aes-256-gcm', encryptionKeys.get(currentId) as Buffer, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [SEALED_PREFIX, currentId, iv.toString('base64url'), body.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [prefix, id, iv, body, tag] = sealed.split('.');
      const key = id === undefined ? undefined : encryptionKeys.get(id);
      if (prefix !== SEALED_PREFIX || !key || iv === undefined || body === undefined || tag === undefined) {
        throw new Error('not a value sealed under a known key');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    sealJson(value, context) {
      return box.seal(JSON.stringify(value), context);
    },
    openJson<T>(sealed: string, context: string): T {
      return JSON.parse(box.open(sealed, context)) as T;
    },
    isStale(sealed) {
      return sealed.split('.')[1] !== currentId;
    },
    isSealed(value) {
      return SEALED_FORM.test(value);
    },
  };
  return box;
}
