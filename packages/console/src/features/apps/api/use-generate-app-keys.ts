import type { Application } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { queryKeys } from '../../../lib/query-keys.ts';

/**
 * spec §7: POST {generateNewKeysEndpoint} with the redirect URIs (spec §4: only while enabled; the
 * old secret stops working). The answer holds the new secret, this once.
 */
export function useGenerateAppKeys() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ app, redirectURI }: { app: Application; redirectURI: string[] }) =>
      request(api.generateAppKeys, { at: app.generateNewKeysEndpoint, body: { redirectURI } }),
    onSuccess: (keys, { app }) => {
      queryClient.setQueryData(queryKeys.appKeys(app.id), { ...keys, clientSecret: '' });
    },
  });
}
