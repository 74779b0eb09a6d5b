import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { sessionKeys } from './query-keys.ts';

/** Deployment settings: documentation and support addresses (public, no session needed). */
export function useConsoleConfig() {
  return useQuery({
    queryKey: sessionKeys.consoleConfig,
    queryFn: ({ signal }) => request(api.getConsoleConfig, { signal, expectSignedOut: true }),
    staleTime: Infinity,
  });
}
