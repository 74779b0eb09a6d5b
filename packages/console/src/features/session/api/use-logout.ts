import { useMutation } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { browser } from '../../../lib/browser.ts';
import { routes } from '../../../lib/routes.ts';

/**
 * spec §4 "Session": log out calls the server, then the browser goes where it says (the identity
 * provider). If the server cannot be reached the console reloads at its root, which signs in again.
 */
export function useLogout() {
  return useMutation({
    mutationFn: () => request(api.logout, { expectSignedOut: true }),
    onSuccess: ({ redirectUrl }) => browser.assign(redirectUrl),
    onError: () => browser.assign(routes.projectList()),
  });
}
