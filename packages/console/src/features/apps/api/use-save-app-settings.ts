import type { Application, ApplicationKeys } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type Tagged } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';
import { updateAppKeys } from './update-app-keys.ts';
import { appKeysKey } from './use-app-keys.ts';
import { appKey, updateApp } from './use-set-app-enabled.ts';

export interface AppSettings {
  name: string;
  /** Null: the application has no keys, so there are no redirect URIs to save. */
  redirectURI: string[] | null;
  postLogoutRedirectURI: string[] | null;
  backchannelLogoutURI: string | null;
}

/**
 * spec §2 "Settings pages": one Save — PUT apps/{application} (name, logo, enabled), then
 * PUT {keysEndpoint} (the redirect URIs, post-logout ones and the back-channel logout URI too), each with If-Match from the version it was read at. The
 * cache takes each answer as it comes.
 */
export function useSaveAppSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      current,
      keys: currentKeys,
      settings,
    }: {
      current: Tagged<Application>;
      keys: Tagged<ApplicationKeys> | null;
      settings: AppSettings;
    }) => {
      const saved = await updateApp(current, {
        name: settings.name,
        logoUrl: current.data.logoUrl,
        enabled: current.data.enabled,
      });
      queryClient.setQueryData(appKey(saved.data.id), saved);
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listApps, { project: saved.data.projectId }) });
      let keys: Tagged<ApplicationKeys> | null = null;
      if (settings.redirectURI && currentKeys) {
        keys = await updateAppKeys(saved.data, currentKeys, {
          redirectURI: settings.redirectURI,
          postLogoutRedirectURI: settings.postLogoutRedirectURI ?? currentKeys.data.postLogoutRedirectURI,
          backchannelLogoutURI: settings.backchannelLogoutURI ?? currentKeys.data.backchannelLogoutURI,
        });
        queryClient.setQueryData(appKeysKey(saved.data.id), keys);
      }
      return { app: saved, keys };
    },
  });
}
