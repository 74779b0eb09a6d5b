import type { ApplicationKeys } from '@latchkey/domain';
import { useQuery } from '@tanstack/react-query';
import { api, isApiError, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * spec §7: GET {keysEndpoint} — the client id and redirect URIs, never the secret. It is asked
 * together with the application (the contract path of the keys endpoint, not the app's answer, so
 * the two load in parallel). Null: the application has no keys — its creation stopped after the
 * first step; they can be created on the settings page.
 */
export function useAppKeys(applicationId: string) {
  return useQuery({
    queryKey: queryKeys.appKeys(applicationId),
    queryFn: async ({ signal }): Promise<ApplicationKeys | null> => {
      try {
        return await request(api.getAppKeys, { params: { application: applicationId }, signal });
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}
