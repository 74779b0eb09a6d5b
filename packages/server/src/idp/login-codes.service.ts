import { randomInt } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { safeEqual, sha256 } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { Mailer } from '../mail/mailer.ts';
import {
  consumeLoginCode,
  countAttempt,
  deleteStaleLoginCodes,
  findLoginCodeByInteraction,
  replaceLoginCode,
} from './login-codes.repository.ts';

export const CODE_TTL_MS = 10 * 60 * 1000;
/** Wrong tries a code survives; the next try is refused even with the right code. */
export const MAX_CODE_ATTEMPTS = 5;
/** Codes one address can be sent per window. */
export const MAX_CODE_REQUESTS = 5;
export const CODE_REQUEST_WINDOW_MS = 10 * 60 * 1000;
/**
 * Tries one address gets per hour, whatever number of codes it was sent: at most 24 × 20 guesses
 * at a one-in-a-million code a day (about 0.05 %), where 5 codes × 5 tries every 10 minutes
 * allowed 3,600.
 */
export const MAX_TRIES_PER_ADDRESS = 20;
export const TRIES_WINDOW_MS = 60 * 60 * 1000;

export type RequestCodeResult = { ok: true } | { ok: false; reason: 'rate_limited' } | { ok: false; reason: 'mail_failed'; error: unknown };
export type VerifyCodeResult =
  | { ok: true; email: string }
  | { ok: false; reason: 'none' | 'used' | 'expired' | 'too_many' | 'address_locked' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number };

function hashCode(email: string, code: string): string {
  return sha256(`${email}\n${code}`);
}

/**
 * The built-in provider's one-time codes: 6 random digits, stored hashed, valid 10 minutes and
 * once; a new request replaces the old code. Time comes from the injected clock.
 */
export function createLoginCodes({ db, clock, mailer }: { db: Db; clock: Clock; mailer: Mailer }) {
  return {
    async request(email: string, interactionUid: string): Promise<RequestCodeResult> {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const now = clock.now();
      const stored = await replaceLoginCode(db, {
        email,
        interactionUid,
        codeHash: hashCode(email, code),
        now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        windowStart: new Date(now.getTime() - CODE_REQUEST_WINDOW_MS),
        maxRequests: MAX_CODE_REQUESTS,
      });
      if (!stored) return { ok: false, reason: 'rate_limited' };
      try {
        await mailer.sendLoginCode(email, code);
      } catch (error) {
        // The code was stored but never reached the person: they ask again once mail works.
        return { ok: false, reason: 'mail_failed', error };
      }
      return { ok: true };
    },

    /** The address a code was last sent to during this interaction, if any. */
    async pendingEmail(interactionUid: string): Promise<string | null> {
      return (await findLoginCodeByInteraction(db, interactionUid))?.email ?? null;
    },

    async verify(interactionUid: string, code: string): Promise<VerifyCodeResult> {
      const row = await findLoginCodeByInteraction(db, interactionUid);
      if (!row) return { ok: false, reason: 'none' };
      if (row.consumedAt) return { ok: false, reason: 'used' };
      if (row.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: 'too_many' };
      const now = clock.now();
      if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
      const windowStart = new Date(now.getTime() - TRIES_WINDOW_MS);
      const addressLocked = row.triesWindowStartedAt.getTime() > windowStart.getTime() && row.triesInWindow >= MAX_TRIES_PER_ADDRESS;
      if (addressLocked) return { ok: false, reason: 'address_locked' };

      const attempts = await countAttempt(db, {
        email: row.email,
        codeHash: row.codeHash,
        maxAttempts: MAX_CODE_ATTEMPTS,
        now,
        windowStart,
        maxTries: MAX_TRIES_PER_ADDRESS,
      });
      if (attempts === null) return { ok: false, reason: 'too_many' };
      if (!safeEqual(hashCode(row.email, code), row.codeHash)) {
        return { ok: false, reason: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - attempts };
      }
      if (!(await consumeLoginCode(db, row.email, row.codeHash, now))) return { ok: false, reason: 'used' };
      return { ok: true, email: row.email };
    },

    async purgeExpired(): Promise<void> {
      await deleteStaleLoginCodes(db, new Date(clock.now().getTime() - CODE_REQUEST_WINDOW_MS));
    },
  };
}

export type LoginCodes = ReturnType<typeof createLoginCodes>;
