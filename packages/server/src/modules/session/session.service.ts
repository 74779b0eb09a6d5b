import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import {
  DomainError,
  GLOBAL_WILDCARD,
  isSafeNextPath,
  validationText,
  type ConsoleConfig,
  type SessionAccount,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import { randomToken, sha256 } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../accounts/actor.ts';
import {
  anyAccountExists,
  findAccountByEmail,
  findAccountById,
  grantPermissions,
  insertAccount,
  listPermissions,
  lockAccountCreation,
  type AccountRow,
} from '../accounts/accounts.repository.ts';
import {
  consumeLoginAttempt,
  deleteExpiredSessions,
  deleteLoginAttemptsBefore,
  deleteSession,
  findSession,
  insertLoginAttempt,
  insertSession,
  touchSession,
} from './session.repository.ts';
import type { SignInProvider } from './sign-in-provider.ts';

// DESIGN "Sessions": idle and absolute expiry.
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** How long a sign-in may take between GET /api/authurl and POST /api/login. */
export const LOGIN_ATTEMPT_MS = 15 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not all turn into writes. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface NewSession {
  /** The opaque cookie value; only its SHA-256 is stored. */
  sessionId: string;
  xsrfToken: string;
}

export interface AuthenticatedSession {
  actor: Actor;
  xsrfToken: string;
}

export interface SessionServiceDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'registration' | 'docsUrl' | 'supportUrl'>;
  signIn: SignInProvider;
}

function invalidRedirect(): DomainError {
  return new DomainError('validation_failed', 'Invalid request', [
    { field: 'redirectURL', code: 'validation.invalid_value', message: validationText('validation.invalid_value') },
  ]);
}

export function createSessionService({ db, clock, config, signIn }: SessionServiceDeps) {
  // spec §7: the redirect URL is the console's origin plus /login, and nothing else.
  const redirectUri = `${config.publicUrl}/login`;

  async function actorFor(account: AccountRow): Promise<Actor> {
    return { accountId: account.id, email: account.email, permissions: await listPermissions(db, account.id), via: 'session' };
  }

  /** Creates a session for an account (after sign-in; tests use it to skip the provider). */
  async function createSession(accountId: string, idToken: string | null, tx: Db = db): Promise<NewSession> {
    const sessionId = randomToken();
    const xsrfToken = randomToken();
    const now = clock.now();
    await insertSession(tx, {
      idHash: sha256(sessionId),
      accountId,
      xsrfToken,
      idToken,
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
    const idHash = sha256(sessionId);
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
    return { actor: await actorFor(account), xsrfToken: session.xsrfToken };
  }

  /**
   * GET /api/authurl (spec §7, docs/decisions/0003): records a login attempt bound to this browser
   * and answers where to send it. `binding` is the browser's existing lk_login value, reused so
   * that two tabs signing in at once do not void each other.
   */
  async function startLogin(p: { redirectURL: string; stateNext?: string | undefined; binding?: string | undefined }) {
    if (p.redirectURL !== redirectUri) throw invalidRedirect();
    const now = clock.now();
    await deleteLoginAttemptsBefore(db, new Date(now.getTime() - LOGIN_ATTEMPT_MS));
    const binding = p.binding && /^[A-Za-z0-9_-]{43}$/.test(p.binding) ? p.binding : randomToken();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const codeVerifier = client.randomPKCECodeVerifier();
    await insertLoginAttempt(db, {
      state,
      codeVerifier,
      nonce,
      redirectUrl: redirectUri,
      nextPath: p.stateNext && isSafeNextPath(p.stateNext) ? p.stateNext : null,
      browserBinding: sha256(binding),
      createdAt: now,
    });
    const authUrl = await signIn.authorizationUrl({
      redirectUri,
      state,
      nonce,
      codeChallenge: await client.calculatePKCECodeChallenge(codeVerifier),
    });
    return { authUrl, binding };
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
    binding?: string | undefined;
    /** The browser's current session, if any: replaced by the new one. */
    previousSessionId?: string | undefined;
  }) {
    if (p.redirectURL !== redirectUri) throw invalidRedirect();
    if (!p.state || !p.binding) throw new DomainError('login_failed', 'The sign-in attempt was not found; start again');
    const attempt = await consumeLoginAttempt(
      db,
      p.state,
      sha256(p.binding),
      new Date(clock.now().getTime() - LOGIN_ATTEMPT_MS),
    );
    if (!attempt) throw new DomainError('login_failed', 'The sign-in attempt was not found or has expired; start again');

    const callbackUrl = new URL(attempt.redirectUrl);
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
    if (p.previousSessionId) await deleteSession(db, sha256(p.previousSessionId));
    const session = await createSession(account.id, idToken);
    return { session, next: attempt.nextPath };
  }

  /** GET /api/logout: ends the session (if any) and answers where the browser goes next. */
  async function logout(sessionId: string | undefined): Promise<{ redirectUrl: string }> {
    const ended = sessionId ? await deleteSession(db, sha256(sessionId)) : null;
    const home = `${config.publicUrl}/`;
    const endSession = await signIn.endSessionUrl({ idToken: ended?.idToken ?? null, postLogoutRedirectUri: home });
    return { redirectUrl: endSession ?? home };
  }

  function account(actor: Actor): SessionAccount {
    return { id: actor.accountId, email: actor.email ?? '', permissions: actor.permissions };
  }

  function consoleConfig(): ConsoleConfig {
    return { docsUrl: config.docsUrl, supportUrl: config.supportUrl, registration: config.registration };
  }

  async function purgeExpired(): Promise<void> {
    const now = clock.now();
    await deleteExpiredSessions(db, now, new Date(now.getTime() - SESSION_IDLE_MS));
    await deleteLoginAttemptsBefore(db, new Date(now.getTime() - LOGIN_ATTEMPT_MS));
  }

  return { authenticate, createSession, startLogin, login, logout, account, consoleConfig, purgeExpired };
}

export type SessionService = ReturnType<typeof createSessionService>;
