import type { AccountLanguage, ConsoleConfig, SessionAccount } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { randomToken, safeEqual, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuthenticatedSession } from '../../http/auth.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../http/cookies.ts';
import type { SignInProvider } from '../../idp/console-issuer.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findAccountLanguage,
  findSessionOfCall,
  insertSession,
  touchSession,
  updateAccountLanguage,
} from './session.repository.ts';

/** last_seen_at is written at most this often, so reads do not all turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

/** What the sessions table is keyed by: an HMAC of the cookie value, never the value. */
export function sessionIdRef(secretBox: SecretBox, sessionId: string): string {
  return secretBox.hmac('session-id', sessionId);
}

export interface NewSession {
  /** The opaque cookie value; only its HMAC is stored. */
  sessionId: string;
  xsrfToken: string;
}

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'registration' | 'docsUrl' | 'supportUrl'>;
  signIn: SignInProvider;
  secretBox: SecretBox;
}

/** A console session once open: created, authenticated, its account read, ended, purged. */
export function createConsoleSessions({ db, clock, config, signIn, secretBox }: SessionServiceDeps) {
  // A copy of the sessions table must not sign anyone in nor pass the XSRF check: keyed hashes.
  const sessionRef = (sessionId: string) => sessionIdRef(secretBox, sessionId);
  const xsrfHash = (token: string) => secretBox.hmac('xsrf-token', token);
  const idTokenContext = (idHash: string) => `sessions.id_token:${idHash}`;

  /** Creates a session for an account (after sign-in; tests use it to skip the provider). */
  async function createSession(accountId: string, idToken: string | null, tx: Db = db): Promise<NewSession> {
    const sessionId = randomToken();
    const xsrfToken = randomToken();
    const now = clock.now();
    const idHash = sessionRef(sessionId);
    await insertSession(tx, {
      idHash,
      accountId,
      xsrfHash: xsrfHash(xsrfToken),
      idToken: idToken === null ? null : secretBox.seal(idToken, idTokenContext(idHash)),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
    });
    return { sessionId, xsrfToken };
  }

  /**
   * The account behind a session cookie, or null. An expired session (idle 2 h or absolute 12 h)
   * is deleted on sight; so is one whose account was deactivated.
   */
  async function authenticate(sessionId: string): Promise<AuthenticatedSession | null> {
    const idHash = sessionRef(sessionId);
    const session = await findSessionOfCall(db, idHash);
    if (!session) return null;
    const now = clock.now().getTime();
    const expired = session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + SESSION_IDLE_MS <= now;
    if (expired || session.active !== true) {
      await deleteSession(db, idHash);
      return null;
    }
    if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchSession(db, idHash, new Date(now));
    return {
      actor: { accountId: session.accountId, email: session.email, permissions: session.permissions, via: 'session' },
      xsrfMatches: (token: string) => safeEqual(xsrfHash(token), session.xsrfHash),
    };
  }

  /**
   * GET /api/logout: ends the session (if any) and the provider's: the built-in provider's sessions
   * end here, an external provider's through the RP-initiated logout address answered.
   */
  async function logout(sessionId: string | undefined): Promise<{ redirectUrl: string }> {
    const ended = sessionId ? await deleteSession(db, sessionRef(sessionId)) : null;
    let idToken: string | null = null;
    if (ended?.idToken) {
      try {
        idToken = secretBox.open(ended.idToken, idTokenContext(ended.idHash));
      } catch {
        idToken = null;
      }
    }
    const home = `${config.publicUrl}/`;
    const endSession = await signIn.endSessionUrl({ idToken, postLogoutRedirectUri: home });
    return { redirectUrl: endSession ?? home };
  }

  async function account(actor: Actor): Promise<SessionAccount> {
    const language = await findAccountLanguage(db, actor.accountId);
    return { id: actor.accountId, email: actor.email ?? '', permissions: actor.permissions, language };
  }

  /** The console language the account chose in the top bar (issue 13): its own, no one else's. */
  async function setLanguage(actor: Actor, { language }: AccountLanguage): Promise<SessionAccount> {
    await updateAccountLanguage(db, actor.accountId, language);
    return { id: actor.accountId, email: actor.email ?? '', permissions: actor.permissions, language };
  }

  function consoleConfig(): ConsoleConfig {
    return { docsUrl: config.docsUrl, supportUrl: config.supportUrl, registration: config.registration };
  }

  async function purgeExpired(): Promise<void> {
    const now = clock.now();
    await deleteExpiredSessions(db, now, new Date(now.getTime() - SESSION_IDLE_MS));
  }

  return { sessionRef, authenticate, createSession, logout, account, setLanguage, consoleConfig, purgeExpired };
}
