import { randomBytes, timingSafeEqual } from 'node:crypto';
import { redirectUriMatches } from '@latchkey/domain';
import { safeEqual, type SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import type { Client } from '../../issuer/project-provider.ts';
import { findClient, rehashClientSecret } from './apps.repository.ts';
import { KEYED, legacyHash, storedHashWith } from './client-secret.ts';

// Longer presented values are refused before hashing: no real id or secret comes near this.
const MAX_CREDENTIAL_LENGTH = 512;

/** What a project's issuer asks of the applications: who a client is, its secret and its redirect URIs. */
export function createClientCredentials({ db, secretBox }: { db: Db; secretBox: Pick<SecretBox, 'hmac'> }) {
  const storedHash = storedHashWith(secretBox);
  // Compared against when the client id is unknown, so an unknown client takes the same work as a known one.
  const noSecretHash = storedHash(randomBytes(32).toString('base64url'));

  return {
    /**
     * For the token endpoint: true only for the current secret of an enabled application in an
     * enabled project (spec §4: disabled apps and closed projects reject authentication). The
     * hashes are compared in constant time.
     */
    async verifyClientCredentials(clientId: string, clientSecret: string, found?: Client | null): Promise<boolean> {
      if (typeof clientId !== 'string' || typeof clientSecret !== 'string') return false;
      if (clientId.length > MAX_CREDENTIAL_LENGTH || clientSecret.length > MAX_CREDENTIAL_LENGTH) return false;
      // `found`: the client as this request already read it (the provider looks it up first).
      const client = clientId === '' ? null : found !== undefined ? found : await findClient(db, clientId);
      const stored = client?.clientSecretHash ?? noSecretHash;
      let same: boolean;
      if (stored.startsWith(KEYED)) {
        same = safeEqual(stored, storedHash(clientSecret));
      } else {
        // A secret stored before keyed hashes: checked as it was, then stored keyed from now on.
        const legacy = Buffer.from(stored, 'hex');
        const presented = legacyHash(clientSecret);
        same = legacy.length === presented.length && timingSafeEqual(legacy, presented);
        if (same) await rehashClientSecret(db, { clientId, from: stored, to: storedHash(clientSecret) });
      }
      return same && client !== null && client.applicationEnabled && client.projectEnabled;
    },

    /** For a project's issuer: the client behind a client id (its project, redirect URIs and state), or null. */
    async findClient(clientId: string): Promise<Client | null> {
      if (typeof clientId !== 'string' || clientId === '' || clientId.length > MAX_CREDENTIAL_LENGTH) return null;
      return findClient(db, clientId);
    },

    /**
     * For the authorization endpoint: is `uri` one of the client's registered redirect URIs? The
     * match is exact (spec §2, `redirectUriMatches`): no prefix, wildcard or normalisation. Whether
     * the client may sign anyone in at all is verifyClientCredentials' and the caller's concern.
     */

    async isRedirectUriAllowed(clientId: string, uri: string): Promise<boolean> {
      if (typeof clientId !== 'string' || typeof uri !== 'string' || clientId === '' || clientId.length > MAX_CREDENTIAL_LENGTH) return false;
      const client = await findClient(db, clientId);
      return client !== null && redirectUriMatches(client.redirectUris, uri);
    },
  };
}
