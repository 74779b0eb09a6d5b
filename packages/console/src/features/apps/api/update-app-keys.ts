import type { Application, ApplicationKeys } from '@latchkey/domain';
import { api, requestTagged, type Tagged } from '../../../lib/api/index.ts';

/** spec §7: PUT {keysEndpoint} with the redirect URIs, and If-Match: the version they were read at. */
export function updateAppKeys(app: Application, current: Tagged<ApplicationKeys>, redirectURI: string[]): Promise<Tagged<ApplicationKeys>> {
  return requestTagged(api.updateAppKeys, { at: app.keysEndpoint, body: { redirectURI }, ifMatch: current.etag });
}
