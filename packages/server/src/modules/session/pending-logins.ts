import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import { LOGIN_ATTEMPT_MS } from '../../http/cookies.ts';

/** Sign-ins one browser may have under way at once (tabs); older ones drop out of the cookie. */
const MAX_PENDING_LOGINS = 3;
/** The sealed lk_login cookie stays well under the 4 KB browsers keep per cookie. */
const MAX_PENDING_COOKIE_LENGTH = 3500;
const PENDING_CONTEXT = 'cookie:lk_login';

/** One sign-in under way (docs/decisions/0003), kept in the browser's sealed lk_login cookie. */
export interface PendingLogin {
  state: string;
  codeVerifier: string;
  nonce: string;
  next: string | null;
  /** When GET /api/authurl answered, ms since the epoch (injected clock). */
  at: number;
}

/** The browser's lk_login cookie, read and sealed: the sign-ins under way in it. */
export function pendingLoginsCookie(secretBox: SecretBox, clock: Clock) {
  /** The sign-ins under way in this browser's cookie that are not too old; none when it was tampered with. */
  function pendingLogins(cookie: string | undefined): PendingLogin[] {
    if (!cookie) return [];
    let pending: PendingLogin[];
    try {
      pending = secretBox.openJson<PendingLogin[]>(cookie, PENDING_CONTEXT);
    } catch {
      return [];
    }
    const oldest = clock.now().getTime() - LOGIN_ATTEMPT_MS;
    return Array.isArray(pending) ? pending.filter((p) => typeof p.state === 'string' && p.at > oldest) : [];
  }

  /** The cookie value holding `pending` (newest first), or null when nothing is left. */
  function sealPending(pending: PendingLogin[]): string | null {
    let kept = pending.slice(0, MAX_PENDING_LOGINS);
    for (;;) {
      if (kept.length === 0) return null;
      const sealed = secretBox.sealJson(kept, PENDING_CONTEXT);
      if (sealed.length <= MAX_PENDING_COOKIE_LENGTH || kept.length === 1) return sealed;
      kept = kept.slice(0, -1);
    }
  }

  return { pendingLogins, sealPending };
}
