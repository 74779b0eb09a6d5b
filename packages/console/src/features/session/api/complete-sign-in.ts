import type { QueryClient } from '@tanstack/react-query';
import { api, isApiError, request } from '../../../lib/api/index.ts';
import { resolveReturnTarget } from '../../../lib/resolve-return-target.ts';
import { routes } from '../../../lib/routes.ts';
import { accountQuery, loginRedirectUrl } from '../../../lib/session.ts';

/** The query parameters the identity provider returns to /login with. */
export interface SignInCallback {
  code: string | null;
  state: string | null;
  next: string | null;
  error: string | null;
}

// An authorization code is single-use: the exchange for a code runs once even when the page's effect
// runs twice (React StrictMode) or the page is mounted again; every caller shares its outcome.
const exchanges = new Map<string, Promise<string>>();

/**
 * spec §2 "Login callback": where to go once the return from the identity provider is handled:
 * the declined page with the error, or (after POST login and a fresh account) the next target if it
 * is one of the console's routes, else the project list.
 */
export function completeSignIn(callback: SignInCallback, queryClient: QueryClient): Promise<string> {
  if (callback.error) return Promise.resolve(routes.loginError({ error: callback.error }));
  const { code } = callback;
  if (!code) return Promise.resolve(routes.loginError({ error: 'auth_error' }));
  let pending = exchanges.get(code);
  if (!pending) {
    pending = exchangeCode(code, callback, queryClient);
    exchanges.set(code, pending);
  }
  return pending;
}

async function exchangeCode(code: string, callback: SignInCallback, queryClient: QueryClient): Promise<string> {
  try {
    const answer = await request(api.login, {
      body: { code, redirectURL: loginRedirectUrl(), ...(callback.state ? { state: callback.state } : {}) },
      expectSignedOut: true,
    });
    // spec §7: the login call is followed by GET account.
    await queryClient.fetchQuery({ ...accountQuery, staleTime: 0 });
    return resolveReturnTarget(callback.next) ?? resolveReturnTarget(answer.next) ?? routes.projectList();
  } catch (error) {
    return routes.loginError({ error: signInFailure(error) });
  }
}

/**
 * The codes of a failed sign-in the declined page has a message of its own for; any other failure
 * (login_failed, forbidden, a network error, a 5xx…) is 'auth_error', not "cancelled".
 */
const DECLINED_CODES: ReadonlySet<string> = new Set(['registration_disabled', 'consent_required']);

function signInFailure(error: unknown): string {
  return isApiError(error) && DECLINED_CODES.has(error.code) ? error.code : 'auth_error';
}
