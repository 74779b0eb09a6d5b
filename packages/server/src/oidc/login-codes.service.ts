import { randomInt } from 'node:crypto';
import type { Clock } from '../clock.ts';
import { safeEqual, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { rateLimitKeyOf } from '../http/client-address.ts';
import type { LoginCodeMessage, Mailer } from '../mail/mailer.ts';
import { PAGE_TEXTS } from './pages/texts.ts';
import { consumeLoginCode, countAttempt, deleteStaleLoginCodes, findLoginCode, replaceLoginCode } from './login-codes.repository.ts';
import { deleteEndedRateLimits, hitAll, type RateLimit } from '../db/rate-limits.repository.ts';

export const CODE_TTL_MS = 10 * 60 * 1000;

/** The console's own code mail (its sign-in pages are English). */
export function latchkeyCodeMessage(code: string, minutes: number): LoginCodeMessage {
  return { language: 'en', subject: PAGE_TEXTS.en.mailSubject('Latchkey', code), text: PAGE_TEXTS.en.mailText('Latchkey', code, minutes) };
}
/** Wrong tries a code survives; the next try is refused even with the right code. */
export const MAX_CODE_ATTEMPTS = 5;

// docs/decisions/0006. Limits on sending are per interaction, per address × client address and per
// client address; none is per address alone, so a stranger asking for codes for someone's address
// uses up their own allowance, never the owner's.
export const SEND_WINDOW_MS = 10 * 60 * 1000;
/** Codes one address is sent per window, counted per client address that asks. */
export const MAX_CODES_PER_ADDRESS = 5;
/** Codes one client address may have sent per window, to any addresses. */
export const MAX_CODES_PER_CLIENT = 20;
/** An interaction lives an hour at most (provider ttl): its limits count over its whole life. */
export const INTERACTION_WINDOW_MS = 60 * 60 * 1000;
/** Codes one provider interaction may have sent ("Send a new code", a corrected address). */
export const MAX_CODES_PER_INTERACTION = 5;
/** Different addresses one provider interaction may mail. */
export const MAX_ADDRESSES_PER_INTERACTION = 3;
/**
 * Tries at codes for one address per hour from one client address, whatever number of codes it
 * was sent: 24 × 20 guesses at a one-in-a-million code a day (about 0.05 %) per client address.
 */
export const MAX_TRIES_PER_ADDRESS = 20;
/** Tries one client address gets per hour at any addresses. */
export const MAX_TRIES_PER_CLIENT = 60;
export const TRIES_WINDOW_MS = 60 * 60 * 1000;

export type RequestRefusal = 'interaction' | 'address' | 'client';
export type RequestCodeResult =
  { ok: true } | { ok: false; reason: 'rate_limited'; limit: RequestRefusal } | { ok: false; reason: 'mail_failed'; error: unknown };
export type VerifyCodeResult =
  | { ok: true; email: string }
  | { ok: false; reason: 'none' | 'used' | 'expired' | 'too_many' | 'address_locked' }
  | { ok: false; reason: 'wrong'; attemptsLeft: number };

/**
 * The built-in provider's one-time codes: 6 random digits, stored as a keyed hash, valid 10
 * minutes and once. A code belongs to the provider interaction that asked for it; a new request in
 * that interaction replaces its code, other interactions are not touched. Time comes from the
 * injected clock; the client address is Fastify's request.ip (TRUST_PROXY), counted by
 * rateLimitKeyOf (an IPv6 caller by its /64).
 */
export function createLoginCodes(
  { db, clock, mailer, secretBox }: { db: Db; clock: Clock; mailer: Mailer; secretBox: SecretBox },
  /**
   * Whose sign-ins these are: the issuer's key, a project's id or 'console' (CONSOLE_ISSUER). Codes
   * and every limit are kept per issuer, so one project's traffic never uses up another's.
   */
  issuer: string,
  /** The mail's words for a code valid `minutes` (a project's pages' language and name); none: the console's. */
  message?: (code: string, minutes: number) => LoginCodeMessage,
) {
  const scoped = (parts: string[]) => [issuer, ...parts].join('\n');
  const ref = (interactionUid: string) => secretBox.hmac('login-interaction', scoped([interactionUid]));
  const hashCode = (interactionRef: string, email: string, code: string) => secretBox.hmac('login-code', `${interactionRef}\n${email}\n${code}`);
  const limit = <Name extends string>(name: Name, key: string[], max: number, windowMs: number): RateLimit<Name> => ({
    name,
    bucket: secretBox.hmac('rate-limit', scoped([name, ...key])),
    max,
    windowMs,
  });

  /**
   * Counts one mail to `email` in this interaction against every sending limit, all or none;
   * answers the limit used up, or null. `earlierEmail`: the address this interaction mailed last.
   */
  async function countSend(email: string, interactionUid: string, clientIp: string, earlierEmail: string | null): Promise<RequestRefusal | null> {
    const client = rateLimitKeyOf(clientIp);
    const limits: RateLimit<RequestRefusal>[] = [limit('interaction', ['codes', interactionUid], MAX_CODES_PER_INTERACTION, INTERACTION_WINDOW_MS)];
    if (earlierEmail !== email) {
      limits.push(limit('interaction', ['addresses', interactionUid], MAX_ADDRESSES_PER_INTERACTION, INTERACTION_WINDOW_MS));
    }
    limits.push(
      limit('address', ['send', email, client], MAX_CODES_PER_ADDRESS, SEND_WINDOW_MS),
      limit('client', ['send', client], MAX_CODES_PER_CLIENT, SEND_WINDOW_MS),
    );
    return (await hitAll(db, issuer, limits, clock.now()))?.name ?? null;
  }

  /** One try at the interaction's code: the limits, one attempt counted, then `matches` decides. */
  async function tryCode(
    interactionUid: string,
    clientIp: string,
    matches: (row: { email: string; codeHash: string }, interactionRef: string) => Promise<boolean>,
  ): Promise<VerifyCodeResult> {
    const interactionRef = ref(interactionUid);
    const row = await findLoginCode(db, issuer, interactionRef);
    if (!row) return { ok: false, reason: 'none' };
    if (row.consumedAt) return { ok: false, reason: 'used' };
    if (row.attempts >= MAX_CODE_ATTEMPTS) return { ok: false, reason: 'too_many' };
    const now = clock.now();
    if (row.expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
    const client = rateLimitKeyOf(clientIp);
    const refused = await hitAll(
      db,
      issuer,
      [
        limit('address', ['try', row.email, client], MAX_TRIES_PER_ADDRESS, TRIES_WINDOW_MS),
        limit('client', ['try', client], MAX_TRIES_PER_CLIENT, TRIES_WINDOW_MS),
      ],
      now,
    );
    if (refused) return { ok: false, reason: 'address_locked' };

    const attempts = await countAttempt(db, issuer, interactionRef, row.codeHash, MAX_CODE_ATTEMPTS);
    if (attempts === null) return { ok: false, reason: 'too_many' };
    if (!(await matches(row, interactionRef))) return { ok: false, reason: 'wrong', attemptsLeft: MAX_CODE_ATTEMPTS - attempts };
    if (!(await consumeLoginCode(db, issuer, interactionRef, row.codeHash, now))) return { ok: false, reason: 'used' };
    return { ok: true, email: row.email };
  }

  return {
    async request(email: string, interactionUid: string, clientIp: string): Promise<RequestCodeResult> {
      const now = clock.now();
      const interactionRef = ref(interactionUid);
      const current = await findLoginCode(db, issuer, interactionRef);
      const refused = await countSend(email, interactionUid, clientIp, current?.email ?? null);
      if (refused) return { ok: false, reason: 'rate_limited', limit: refused };

      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await replaceLoginCode(db, {
        issuer,
        interactionRef,
        email,
        codeHash: hashCode(interactionRef, email, code),
        now,
        expiresAt: new Date(now.getTime() + CODE_TTL_MS),
      });
      try {
        await mailer.sendLoginCode(email, code, (message ?? latchkeyCodeMessage)(code, CODE_TTL_MS / 60_000));
      } catch (error) {
        // The code was stored but never reached the person: they ask again once mail works.
        return { ok: false, reason: 'mail_failed', error };
      }
      return { ok: true };
    },

    /**
     * A one-time sign-in link (docs/decisions/0018) is mailed under the same limits as a code: the
     * caller stores the link's token, then sends it with `mailer.sendLoginLink`.
     */
    countSend,

    /** The address a code was last sent to during this interaction, if any. */
    async pendingEmail(interactionUid: string): Promise<string | null> {
      return (await findLoginCode(db, issuer, ref(interactionUid)))?.email ?? null;
    },

    async verify(interactionUid: string, code: string, clientIp: string): Promise<VerifyCodeResult> {
      return tryCode(interactionUid, clientIp, async (row, interactionRef) => safeEqual(hashCode(interactionRef, row.email, code), row.codeHash));
    },

    /**
     * docs/decisions/0052: an imported person's previous password instead of the code, under the
     * code's own limits — each try uses one of its attempts and counts against the address's and the
     * client's tries, before the (costly) check runs.
     */
    async verifyWith(interactionUid: string, clientIp: string, check: (email: string) => Promise<boolean>): Promise<VerifyCodeResult> {
      return tryCode(interactionUid, clientIp, (row) => check(row.email));
    },

    async purgeExpired(): Promise<void> {
      const now = clock.now();
      await deleteStaleLoginCodes(db, now);
      await deleteEndedRateLimits(db, now);
    },
  };
}

export type LoginCodes = ReturnType<typeof createLoginCodes>;
