import type { Application } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, requestTagged } from '../../../lib/api/index.ts';
import { appKeysKey, withoutSecret } from './use-app-keys.ts';

/**
 * spec §7: POST {keysEndpoint} with the redirect URIs — here for an application whose creation
 * stopped before its keys. The answer holds the client secret, this once.
 */
export function useCreateAppKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ app, redirectURI }: { app: Application; redirectURI: string[] }) =>
      requestTagged(api.createAppKeys, { at: app.keysEndpoint, body: { redirectURI } }),
    onSuccess: (keys, { app }) => {
      // The secret is not kept in the cache: it is shown once, from the mutation's answer.
      queryClient.setQueryData(appKeysKey(app.id), withoutSecret(keys));
    },
  });
}
