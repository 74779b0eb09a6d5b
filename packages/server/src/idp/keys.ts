import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { getOrCreateServerKey } from './server-keys.repository.ts';

export interface IdpKeys {
  /** Private signing keys of the provider (JWKS). */
  jwks: { keys: JsonWebKey[] };
  /** Keys signing the provider's cookies. */
  cookieKeys: string[];
  /** The console's client secret at the built-in provider. */
  consoleClientSecret: string;
}

function newSigningKey(): JsonWebKey {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomToken(12), alg: 'RS256', use: 'sig' };
}

/**
 * Generated on first start, then read from server_keys (sealed under the master key): no secret
 * lives in configuration or memory only, and none in the database in the clear.
 */
export async function loadIdpKeys(db: Db, box: SecretBox): Promise<IdpKeys> {
  return {
    jwks: await getOrCreateServerKey(db, box, 'idp.jwks', () => ({ keys: [newSigningKey()] })),
    cookieKeys: await getOrCreateServerKey(db, box, 'idp.cookie_keys', () => [randomToken(), randomToken()]),
    consoleClientSecret: await getOrCreateServerKey(db, box, 'idp.console_client_secret', () => randomToken()),
  };
}
