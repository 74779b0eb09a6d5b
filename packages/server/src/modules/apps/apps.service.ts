import { createFirstKeysCalls, createKeysChangeCalls, type AppKeysDeps } from './app-keys.ts';
import { createApplicationCalls } from './application.ts';
import { createClientCredentials } from './client-credentials.ts';

export type { KeysRegistration } from './app-keys.ts';
export { newApplicationId, newClientId, newClientSecret } from './client-secret.ts';

export type AppsServiceDeps = AppKeysDeps;

/**
 * spec §7 "Applications", as the module and a project's issuer use them: the application itself
 * (application.ts), its keys, first and changed (app-keys.ts), and the client credentials the issuer checks
 * (client-credentials.ts).
 */
export function createAppsService(deps: AppsServiceDeps) {
  return {
    ...createApplicationCalls(deps),
    ...createFirstKeysCalls(deps),
    ...createKeysChangeCalls(deps),
    ...createClientCredentials(deps),
  };
}

export type AppsService = ReturnType<typeof createAppsService>;
