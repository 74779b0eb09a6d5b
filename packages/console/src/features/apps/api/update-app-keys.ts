import type { Application, ApplicationKeys } from '@latchkey/domain';
import { api, request } from '../../../lib/api/index.ts';

/** spec §7: PUT {keysEndpoint} with the redirect URIs. */
export function updateAppKeys(app: Application, redirectURI: string[]): Promise<ApplicationKeys> {
  return request(api.updateAppKeys, { at: app.keysEndpoint, body: { redirectURI } });
}
