import type { ApplicationKeys } from '@latchkey/domain';
import { useQuery } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { readKey } from '../../../lib/api/query-key.ts';

/** The cache key of an application's keys as this hook reads them (with their ETag). */
export const appKeysKey = (applicationId: string) => readKey(api.getAppKeys, { params: { application: applicationId } }, true);

/**
 * spec §7: GET {keysEndpoint} — the client id and redirect URIs, never the secret — with their
 * ETag (the keys have their own version; docs/decisions/0007), sent back as If-Match when they are
 * replaced or regenerated. It is asked together with the application (the contract path of the
 * keys endpoint, not the app's answer, so the two load in parallel). Null: the application has no
 * keys — its creation stopped after the first step; they can be created on the settings page.
 */
export function useAppKeys(applicationId: string) {
  return useQuery({
    queryKey: appKeysKey(applicationId),
    queryFn: async ({ signal }): Promise<Tagged<ApplicationKeys> | null> => {
      try {
        return await requestTagged(api.getAppKeys, { params: { application: applicationId }, signal });
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/** What the cache keeps of keys an answer brought: never the secret (it is shown once, from the answer). */
export function withoutSecret(keys: Tagged<ApplicationKeys>): Tagged<ApplicationKeys> {
  return { data: { ...keys.data, clientSecret: '' }, etag: keys.etag };
}
