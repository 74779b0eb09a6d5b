import type { Application, ApplicationKeys } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError, requestTagged, type Tagged } from '../../../lib/api/index.ts';
import { appKeysKey, withoutSecret } from './use-app-keys.ts';

/**
 * spec §7: POST {generateNewKeysEndpoint} with the redirect URIs and If-Match (spec §4: only while
 * enabled; the old secret stops working). The answer holds the new secret, this once.
 */
export function useGenerateAppKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ app, keys }: { app: Application; keys: Tagged<ApplicationKeys> }) =>
      requestTagged(api.generateAppKeys, { at: app.generateNewKeysEndpoint, body: { redirectURI: keys.data.redirectURI }, ifMatch: keys.etag }),
    onSuccess: (answer, { app }) => {
      queryClient.setQueryData(appKeysKey(app.id), withoutSecret(answer));
    },
    onError: (error, { app }) => {
      // A colleague changed the keys since they were read (412): read them again for a retry.
      if (isApiError(error) && error.status === 412) void queryClient.invalidateQueries({ queryKey: appKeysKey(app.id) });
    },
  });
}
