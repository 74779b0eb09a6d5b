import { createConsoleSessions, type SessionServiceDeps } from './console-sessions.ts';
import { createConsoleSignIn } from './sign-in.ts';

export { sessionIdRef, type NewSession, type SessionServiceDeps } from './console-sessions.ts';

/** spec §7 "Session": signing in (sign-in.ts) and the session it opens (console-sessions.ts). */
export function createSessionService(deps: SessionServiceDeps) {
  const sessions = createConsoleSessions(deps);
  // The keyed reference stays inside: callers hold session ids, never their hashes.
  const { sessionRef: _sessionRef, ...calls } = sessions;
  return { ...calls, ...createConsoleSignIn(deps, sessions) };
}

export type SessionService = ReturnType<typeof createSessionService>;
