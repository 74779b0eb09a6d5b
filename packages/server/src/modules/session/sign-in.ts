import { randomUUID } from 'node:crypto';
import * as client from 'openid-client';
import { DomainError, GLOBAL_WILDCARD, normaliseNextPath, validationText } from '@latchkey/domain';
import { safeEqual } from '../../crypto.ts';
import {
  anyAccountExists,
  findAccountByEmail,
  grantPermissions,
  insertAccount,
  lockAccountCreation,
  markSignedIn,
  type AccountRow,
} from '../accounts/accounts.repository.ts';
import type { createConsoleSessions, SessionServiceDeps } from './console-sessions.ts';
import { pendingLoginsCookie, type PendingLogin } from './pending-logins.ts';
import { deleteSession } from './session.repository.ts';

function invalidRedirect(): DomainError {
  return new DomainError('validation_failed', 'Invalid request', [
    { field: 'redirectURL', code: 'validation.invalid_value', message: validationText('validation.invalid_value') },
  ]);
}

/** Signing in to the console (docs/decisions/0003): the attempt started, then finished into a session. */
export function createConsoleSignIn(
  { db, clock, config, signIn, secretBox }: SessionServiceDeps,
  { sessionRef, createSession }: Pick<ReturnType<typeof createConsoleSessions>, 'sessionRef' | 'createSession'>,
) {
  // spec §7: the redirect URL is the console's origin plus /login, and nothing else.
  const redirectUri = `${config.publicUrl}/login`;
  const { pendingLogins, sealPending } = pendingLoginsCookie(secretBox, clock);

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

  return { startLogin, login };
}
