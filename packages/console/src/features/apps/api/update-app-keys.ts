import type { Application, ApplicationKeys } from '@latchkey/domain';
import { api, requestTagged, type Tagged } from '../../../lib/api/index.ts';

/**
 * spec §7: PUT {keysEndpoint} with the redirect URIs (and, issue 22, the post-logout ones and the
 * back-channel logout URI), and
 * If-Match: the version they were read at.
 */
export function updateAppKeys(
  app: Application,
  current: Tagged<ApplicationKeys>,
  uris: { redirectURI: string[]; postLogoutRedirectURI: string[]; backchannelLogoutURI: string },
): Promise<Tagged<ApplicationKeys>> {
  return requestTagged(api.updateAppKeys, { at: app.keysEndpoint, body: uris, ifMatch: current.etag });
}
