import { generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { randomToken } from '../crypto.ts';
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

/** Generated on first start, then read from server_keys: no secret lives in configuration or memory only. */
export async function loadIdpKeys(db: Db): Promise<IdpKeys> {
  return {
    jwks: await getOrCreateServerKey(db, 'idp.jwks', () => ({ keys: [newSigningKey()] })),
    cookieKeys: await getOrCreateServerKey(db, 'idp.cookie_keys', () => [randomToken(), randomToken()]),
    consoleClientSecret: await getOrCreateServerKey(db, 'idp.console_client_secret', () => randomToken()),
  };
}
