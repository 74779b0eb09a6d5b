import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import {
  DomainError,
  GLOBAL_WILDCARD,
  normaliseNextPath,
  validationText,
  type AccountLanguage,
  type ConsoleConfig,
  type SessionAccount,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { randomToken, safeEqual, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuthenticatedSession } from '../../http/auth.ts';
import { LOGIN_ATTEMPT_MS, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../http/cookies.ts';
import {
  anyAccountExists,
  findAccountByEmail,
  findAccountById,
  grantPermissions,
  insertAccount,
  listPermissions,
  lockAccountCreation,
  markSignedIn,
  type AccountRow,
} from '../accounts/accounts.repository.ts';
import {
  deleteExpiredSessions,
  deleteSession,
  findAccountLanguage,
  findSession,
  insertSession,
  touchSession,
  updateAccountLanguage,
} from './session.repository.ts';
import type { SignInProvider } from '../../idp/console-issuer.ts';

/** last_seen_at is written at most this often, so reads do not all turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

/** Sign-ins one browser may have under way at once (tabs); older ones drop out of the cookie. */
const MAX_PENDING_LOGINS = 3;
/** The sealed lk_login cookie stays well under the 4 KB browsers keep per cookie. */
const MAX_PENDING_COOKIE_LENGTH = 3500;
const PENDING_CONTEXT = 'cookie:lk_login';

/** What the sessions table is keyed by: an HMAC of the cookie value, never the value. */
export function sessionIdRef(secretBox: SecretBox, sessionId: string): string {
  return secretBox.hmac('session-id', sessionId);
}

export interface NewSession {
  /** The opaque cookie value; only its HMAC is stored. */
  sessionId: string;
  xsrfToken: string;
}

/** One sign-in under way (docs/decisions/0003), kept in the browser's sealed lk_login cookie. */
interface PendingLogin {
  state: string;
  codeVerifier: string;
  nonce: string;
  next: string | null;
  /** When GET /api/authurl answered, ms since the epoch (injected clock). */
  at: number;
}

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'registration' | 'docsUrl' | 'supportUrl'>;
  signIn: SignInProvider;
  secretBox: SecretBox;
}

function invalidRedirect(): DomainError {
  return new DomainError('validation_failed', 'Invalid request', [
    { field: 'redirectURL', code: 'validation.invalid_value', message: validationText('validation.invalid_value') },
  ]);
}

export function createSessionService({ db, clock, config, signIn, secretBox }: SessionServiceDeps) {
  // spec §7: the redirect URL is the console's origin plus /login, and nothing else.
  const redirectUri = `${config.publicUrl}/login`;
  // A copy of the sessions table must not sign anyone in nor pass the XSRF check: keyed hashes.
  const sessionRef = (sessionId: string) => sessionIdRef(secretBox, sessionId);
  const xsrfHash = (token: string) => secretBox.hmac('xsrf-token', token);
  const idTokenContext = (idHash: string) => `sessions.id_token:${idHash}`;

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

  async function actorFor(account: AccountRow): Promise<Actor> {
    return { accountId: account.id, email: account.email, permissions: await listPermissions(db, account.id), via: 'session' };
  }

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
    const session = await findSession(db, idHash);
    if (!session) return null;
    const now = clock.now().getTime();
    if (session.expiresAt.getTime() <= now || session.lastSeenAt.getTime() + SESSION_IDLE_MS <= now) {
      await deleteSession(db, idHash);
      return null;
    }
    const account = await findAccountById(db, session.accountId);
    if (!account || !account.active) {
      await deleteSession(db, idHash);
      return null;
    }
    if (now - session.lastSeenAt.getTime() >= TOUCH_EVERY_MS) await touchSession(db, idHash, new Date(now));
    return {
      actor: await actorFor(account),
      xsrfMatches: (token: string) => safeEqual(xsrfHash(token), session.xsrfHash),
    };
  }

  /**
   * GET /api/authurl (spec §7, docs/decisions/0003): answers where to send the browser, and the new
   * value of its sealed lk_login cookie, which carries this attempt (PKCE verifier, nonce, state,
   * next path) beside the browser's other recent ones, so two tabs signing in at once do not void
   * each other. Nothing is written to the database: anyone may call this.
   */
  async function startLogin(p: { redirectURL: string; stateNext?: string | undefined; pending?: string | undefined }) {
    if (p.redirectURL !== redirectUri) throw invalidRedirect();
    const attempt: PendingLogin = {
      state: client.randomState(),
      nonce: client.randomNonce(),
      codeVerifier: client.randomPKCECodeVerifier(),
      next: p.stateNext ? normaliseNextPath(p.stateNext) : null,
      at: clock.now().getTime(),
    };
    const authUrl = await signIn.authorizationUrl({
      redirectUri,
      state: attempt.state,
      nonce: attempt.nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(attempt.codeVerifier),
    });
    return { authUrl, pending: sealPending([attempt, ...pendingLogins(p.pending)]) as string };
  }

  /**
   * spec §2 "Session/Login": the first account ever becomes the owner (glb::*); later ones start
   * with no permission, or are declined when REGISTRATION=closed. Serialised by an advisory lock.
   */
  async function findOrRegister(email: string): Promise<AccountRow> {
    const existing = await findAccountByEmail(db, email);
    if (existing) return existing;
    return db.transaction(async (tx) => {
      await lockAccountCreation(tx);
      const again = await findAccountByEmail(tx, email);
      if (again) return again;
      const first = !(await anyAccountExists(tx));
      if (!first && config.registration === 'closed') {
        throw new DomainError('registration_disabled', 'Registration is disabled');
      }
      const account = await insertAccount(tx, { id: randomUUID(), email, createdAt: clock.now() });
      if (first) await grantPermissions(tx, account.id, [GLOBAL_WILDCARD]);
      return account;
    });
  }

  /** POST /api/login: checks the attempt (state + browser binding), exchanges the code, opens a session. */
  async function login(p: {
    code: string;
    redirectURL: string;
    state?: string | undefined;
    /** The browser's lk_login cookie. */
    pending?: string | undefined;
    /** The browser's current session, if any: replaced by the new one. */
    previousSessionId?: string | undefined;
  }) {
    if (p.redirectURL !== redirectUri) throw invalidRedirect();
    if (!p.state || !p.pending) throw new DomainError('login_failed', 'The sign-in attempt was not found; start again');
    const pending = pendingLogins(p.pending);
    const state = p.state;
    const attempt = pending.find((a) => safeEqual(a.state, state));
    if (!attempt) throw new DomainError('login_failed', 'The sign-in attempt was not found or has expired; start again');
    // Single use: the answer's cookie no longer holds it (and the provider's code is single use too).
    const remaining = sealPending(pending.filter((a) => a !== attempt));

    const callbackUrl = new URL(redirectUri);
    callbackUrl.searchParams.set('code', p.code);
    callbackUrl.searchParams.set('state', p.state);
    // Outside any transaction: the exchange may call the built-in provider, which uses the database.
    const { email, idToken } = await signIn.exchange({
      callbackUrl,
      codeVerifier: attempt.codeVerifier,
      state: attempt.state,
      nonce: attempt.nonce,
    });

    const account = await findOrRegister(email);
    if (!account.active) throw new DomainError('forbidden', 'This account is inactive');
    if (account.isServiceAccount) throw new DomainError('forbidden', 'A service account does not sign in to the console');
    await markSignedIn(db, account.id, clock.now());
    if (p.previousSessionId) await deleteSession(db, sessionRef(p.previousSessionId));
    const session = await createSession(account.id, idToken);
    return { session, next: attempt.next, pending: remaining };
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

  return { authenticate, createSession, startLogin, login, logout, account, setLanguage, consoleConfig, purgeExpired };
}

export type SessionService = ReturnType<typeof createSessionService>;
