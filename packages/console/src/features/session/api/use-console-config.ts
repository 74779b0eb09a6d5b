import { useQuery } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/** Deployment settings: documentation and support addresses (public, no session needed). */
export function useConsoleConfig() {
  return useQuery({
    queryKey: queryKeys.consoleConfig,
    queryFn: ({ signal }) => request(api.getConsoleConfig, { signal, expectSignedOut: true }),
    staleTime: Infinity,
  });
}
