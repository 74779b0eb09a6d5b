import type { SessionAccount } from '@latchkey/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, request } from './api/index.ts';
import { browser } from './browser.ts';
import { routes } from './routes.ts';

/**
 * The signed-in account (spec §2 "Session entry"). A 401 here means "not signed in yet", not an
 * expired session: the caller sends the browser to the identity provider instead of the modal.
 */
export const accountQuery = queryOptions({
  // The key rule's (api/query-key.ts) for GET account, written out: the rule's code stays out of the
  // first download. api/query-key.test.ts checks the two agree.
  queryKey: ['account'],
  queryFn: ({ signal }) => request(api.getAccount, { signal, expectSignedOut: true }),
  retry: false,
  staleTime: 60_000,
});

/** The signed-in account; only under the session gate, which renders nothing before it is loaded. */
export function useSessionAccount(): SessionAccount {
  const { data } = useQuery(accountQuery);
  if (!data) throw new Error('useSessionAccount is used outside the session gate');
  return data;
}

/** Where the identity provider sends the browser back to (spec §7: origin plus /login). */
export function loginRedirectUrl(): string {
  return `${browser.origin()}${routes.login()}`;
}

/**
 * spec §7 "Session": ask the server for the identity provider's address, with the path to come back
 * to as `state_next`, and send the browser there.
 */
export async function startSignIn(next: string = browser.currentPath()): Promise<void> {
  const { authUrl } = await request(api.getAuthUrl, {
    query: { redirectURL: loginRedirectUrl(), state_next: next },
    expectSignedOut: true,
  });
  browser.assign(authUrl);
}
