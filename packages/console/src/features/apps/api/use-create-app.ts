import type { ApplicationKeys, ApplicationType } from '@latchkey/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, request } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';

export interface CreatedApp {
  id: string;
  projectId: string;
  keysEndpoint: string;
}

export interface NewApp {
  projectId: string;
  name: string;
  applicationType: ApplicationType;
  redirectURI: string[];
  /** The application already made by an earlier attempt whose key step failed: only keys are asked. */
  existing: CreatedApp | null;
}

/** The application was made, its keys were not: the error of the key step, and the app to retry with. */
export class KeysStepError extends Error {
  readonly app: CreatedApp;
  override readonly cause: unknown;

  constructor(app: CreatedApp, cause: unknown) {
    super(cause instanceof Error ? cause.message : 'The keys of the application could not be created');
    this.name = 'KeysStepError';
    this.app = app;
    this.cause = cause;
  }
}

/**
 * spec §7: POST apps with platformCode, name, url and projectId (and its type, issue 22); then POST {keysEndpoint} with the
 * redirect URIs, which answers the client id and — this once — the client secret.
 */
export function useCreateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ projectId, name, applicationType, redirectURI, existing }: NewApp): Promise<{ app: CreatedApp; keys: ApplicationKeys }> => {
      const app = existing ?? (await request(api.createApp, { body: { platformCode: 'oidc', applicationType, name, url: '', projectId } }));
      void queryClient.invalidateQueries({ queryKey: resourceKey(api.listApps, { project: projectId }) });
      try {
        const keys = await request(api.createAppKeys, { at: app.keysEndpoint, body: { redirectURI } });
        return { app, keys };
      } catch (error) {
        throw new KeysStepError(app, error);
      }
    },
  });
}
