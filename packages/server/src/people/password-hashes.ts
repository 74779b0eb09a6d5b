import { createRequire } from 'node:module';
import { pbkdf2, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';
import { PASSWORD_HASH_MAX_LENGTH } from '@latchkey/domain';

/**
 * Password hashes brought in by an import (issue 37, docs/decisions/0052): the formats taken, their
 * parameters bounded so that no file can make one sign-in cost more than a few hundred milliseconds
 * of CPU or more than 64 MiB, and their one-time check at sign-in.
 *
 * - bcrypt: `$2a$`, `$2b$`, `$2y$` (cost 4–12), checked by bcryptjs (pure JS).
 * - Argon2id: PHC `$argon2id$v=19$m=…,t=…,p=…$salt$hash` (m ≤ 65536 KiB, t ≤ 10, p ≤ 8), by Node's
 *   crypto.argon2 (Node ≥ 24.7); on a Node without it such lines are refused with that reason.
 * - scrypt: PHC as passlib writes it, `$scrypt$ln=…,r=…,p=…$salt$hash` (N = 2^ln; 128·N·r ≤ 64 MiB, p ≤ 4).
 * - PBKDF2-SHA256: passlib's `$pbkdf2-sha256$rounds$salt$hash` (adapted base64) and Django's
 *   `pbkdf2_sha256$rounds$salt$hash` (rounds 1 000–1 000 000).
 */

const LIMITS = {
  bcryptCost: 12,
  argon2Memory: 65_536,
  argon2Passes: 10,
  argon2Parallelism: 8,
  scryptMemory: 64 * 1024 * 1024,
  scryptParallelism: 4,
  pbkdf2Rounds: 1_000_000,
} as const;

export type ParsedHash =
  | { kind: 'bcrypt'; hash: string }
  | { kind: 'argon2id'; memory: number; passes: number; parallelism: number; salt: Buffer; hash: Buffer }
  | { kind: 'scrypt'; n: number; r: number; p: number; salt: Buffer; hash: Buffer }
  | { kind: 'pbkdf2-sha256'; rounds: number; salt: Buffer; hash: Buffer };

export type HashRefusal = { reason: 'password_hash_unknown' | 'password_hash_parameters' | 'argon2_unavailable'; message: string };

interface Argon2Options {
  message: Buffer | string;
  nonce: Buffer;
  parallelism: number;
  tagLength: number;
  memory: number;
  passes: number;
}
type Argon2 = (algorithm: 'argon2id', options: Argon2Options, callback: (error: Error | null, derived: Buffer) => void) => void;

// Node ≥ 24.7 has crypto.argon2; the project runs on Node ≥ 22, where it is missing (read at run time).
const nodeCrypto = createRequire(import.meta.url)('node:crypto') as { argon2?: Argon2 };
const argon2Available = typeof nodeCrypto.argon2 === 'function';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number, options: object) => Promise<Buffer>;
const pbkdf2Async = promisify(pbkdf2);

const unknown = (message: string): HashRefusal => ({ reason: 'password_hash_unknown', message });
const tooCostly = (message: string): HashRefusal => ({ reason: 'password_hash_parameters', message });

/** Standard or URL base64 without padding, or passlib's adapted base64 ('.' for '+'). */
function base64(text: string): Buffer | null {
  if (!/^[A-Za-z0-9+/.\-_]+={0,2}$/.test(text)) return null;
  const buffer = Buffer.from(text.replaceAll('.', '+').replaceAll('-', '+').replaceAll('_', '/'), 'base64');
  return buffer.length > 0 ? buffer : null;
}

function parameters(text: string): Map<string, number> | null {
  const map = new Map<string, number>();
  for (const pair of text.split(',')) {
    const match = /^([a-z]+)=(\d{1,10})$/.exec(pair);
    if (!match) return null;
    map.set(match[1] as string, Number(match[2]));
  }
  return map;
}

const inRange = (value: number | undefined, min: number, max: number): value is number =>
  value !== undefined && Number.isInteger(value) && value >= min && value <= max;

/** The hash as the import stores it, or why it is refused. */
export function parsePasswordHash(text: string): ParsedHash | HashRefusal {
  if (text.length > PASSWORD_HASH_MAX_LENGTH) return unknown('The password hash is longer than any format taken');
  const bcryptMatch = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/.exec(text);
  if (bcryptMatch) {
    const cost = Number(bcryptMatch[1]);
    return cost >= 4 && cost <= LIMITS.bcryptCost
      ? { kind: 'bcrypt', hash: text }
      : tooCostly(`bcrypt cost ${cost} is outside 4–${LIMITS.bcryptCost}`);
  }
  const parts = text.split('$');
  if (text.startsWith('$argon2id$')) {
    // '', 'argon2id', 'v=19', 'm=..,t=..,p=..', salt, hash
    if (parts.length !== 6 || parts[2] !== 'v=19') return unknown('An Argon2id hash is $argon2id$v=19$m=…,t=…,p=…$salt$hash');
    const p = parameters(parts[3] as string);
    const salt = base64(parts[4] as string);
    const hash = base64(parts[5] as string);
    if (!p || !salt || !hash || p.size !== 3) return unknown('An Argon2id hash is $argon2id$v=19$m=…,t=…,p=…$salt$hash');
    const [memory, passes, parallelism] = [p.get('m'), p.get('t'), p.get('p')];
    if (
      !inRange(parallelism, 1, LIMITS.argon2Parallelism) ||
      !inRange(passes, 1, LIMITS.argon2Passes) ||
      !inRange(memory, 8 * parallelism, LIMITS.argon2Memory)
    ) {
      return tooCostly(`Argon2id parameters must be m ≤ ${LIMITS.argon2Memory}, t ≤ ${LIMITS.argon2Passes}, p ≤ ${LIMITS.argon2Parallelism}`);
    }
    if (salt.length < 8 || hash.length < 16 || hash.length > 64) return unknown('An Argon2id salt is at least 8 bytes and its hash 16–64');
    if (!argon2Available)
      return { reason: 'argon2_unavailable', message: 'This server runs on a Node.js without Argon2 (it needs Node 24.7 or later)' };
    return { kind: 'argon2id', memory, passes, parallelism, salt, hash };
  }
  if (text.startsWith('$scrypt$')) {
    if (parts.length !== 5) return unknown('A scrypt hash is $scrypt$ln=…,r=…,p=…$salt$hash');
    const p = parameters(parts[2] as string);
    const salt = base64(parts[3] as string);
    const hash = base64(parts[4] as string);
    if (!p || !salt || !hash || p.size !== 3) return unknown('A scrypt hash is $scrypt$ln=…,r=…,p=…$salt$hash');
    const [ln, r, par] = [p.get('ln'), p.get('r'), p.get('p')];
    if (!inRange(ln, 1, 20) || !inRange(r, 1, 32) || !inRange(par, 1, LIMITS.scryptParallelism) || 128 * 2 ** ln * r > LIMITS.scryptMemory) {
      return tooCostly(`scrypt parameters must keep 128·2^ln·r ≤ 64 MiB and p ≤ ${LIMITS.scryptParallelism}`);
    }
    if (hash.length < 16 || hash.length > 64) return unknown('A scrypt hash is 16–64 bytes');
    return { kind: 'scrypt', n: 2 ** ln, r, p: par, salt, hash };
  }
  const passlib = text.startsWith('$pbkdf2-sha256$') && parts.length === 5;
  const django = text.startsWith('pbkdf2_sha256$') && parts.length === 4;
  if (passlib || django) {
    const [rounds, saltText, hashText] = passlib ? parts.slice(2) : parts.slice(1);
    if (!rounds || !/^\d{1,10}$/.test(rounds) || !saltText || !hashText) return unknown('A PBKDF2-SHA256 hash is $pbkdf2-sha256$rounds$salt$hash');
    // Django keeps its salt as text; passlib encodes it.
    const salt = passlib ? base64(saltText) : Buffer.from(saltText, 'utf8');
    const hash = base64(hashText);
    if (!salt || !hash || hash.length < 16 || hash.length > 64) return unknown('A PBKDF2-SHA256 hash is $pbkdf2-sha256$rounds$salt$hash');
    if (!inRange(Number(rounds), 1_000, LIMITS.pbkdf2Rounds)) return tooCostly(`PBKDF2 rounds must be 1000–${LIMITS.pbkdf2Rounds}`);
    return { kind: 'pbkdf2-sha256', rounds: Number(rounds), salt, hash };
  }
  return unknown('The password hash is none of bcrypt, Argon2id, scrypt or PBKDF2-SHA256 (see the README)');
}

export const isRefusal = (parsed: ParsedHash | HashRefusal): parsed is HashRefusal => 'reason' in parsed;

function argon2(password: string, h: Extract<ParsedHash, { kind: 'argon2id' }>): Promise<Buffer> {
  const run = nodeCrypto.argon2;
  if (!run) return Promise.reject(new Error('argon2 unavailable'));
  return new Promise((resolve, reject) =>
    run(
      'argon2id',
      { message: password, nonce: h.salt, parallelism: h.parallelism, tagLength: h.hash.length, memory: h.memory, passes: h.passes },
      (error, derived) => (error ? reject(error) : resolve(derived)),
    ),
  );
}

async function derived(password: string, h: Exclude<ParsedHash, { kind: 'bcrypt' }>): Promise<Buffer> {
  if (h.kind === 'argon2id') return argon2(password, h);
  if (h.kind === 'scrypt') return scryptAsync(password, h.salt, h.hash.length, { N: h.n, r: h.r, p: h.p, maxmem: 2 * LIMITS.scryptMemory });
  return pbkdf2Async(password, h.salt, h.rounds, h.hash.length, 'sha256');
}

/** Does `password` match the stored `hash`? A hash that no longer parses (a limit lowered since) matches nothing. */
export async function passwordMatches(password: string, hash: string): Promise<boolean> {
  const parsed = parsePasswordHash(hash);
  if (isRefusal(parsed)) return false;
  if (parsed.kind === 'bcrypt') return bcrypt.compare(password, parsed.hash);
  const computed = await derived(password, parsed);
  return computed.length === parsed.hash.length && timingSafeEqual(computed, parsed.hash);
}

const DECOY = '$pbkdf2-sha256$200000$c2FsdHNhbHRzYWx0$ZGVjb3lkZWNveWRlY295ZGVjb3lkZWNveWRlY295ZGU';

/** The same kind of work as a check, for an address without a hash: the answer's time does not tell which it was. */
export async function decoyCheck(password: string): Promise<false> {
  await passwordMatches(password, DECOY);
  return false;
}
