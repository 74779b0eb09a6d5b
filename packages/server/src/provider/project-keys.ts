import { generateKeyPair, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { SIGNING_ALGS, type Issuer } from '@latchkey/domain';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { getOrCreateServerKey } from '../idp/server-keys.repository.ts';

type SigningAlg = Issuer['id_token_signing_alg'];

const generatePair = promisify(generateKeyPair) as (type: string, options?: object) => Promise<{ privateKey: KeyObject }>;

/** A new private signing key of `alg`, generated off the event loop (an RSA key takes tens of milliseconds). */
async function privateJwk(alg: SigningAlg): Promise<JsonWebKey> {
  const pair =
    alg === 'ES256'
      ? await generatePair('ec', { namedCurve: 'P-256' })
      : alg === 'EdDSA'
        ? await generatePair('ed25519')
        : await generatePair('rsa', { modulusLength: 2048 });
  return { ...pair.privateKey.export({ format: 'jwk' }), kid: randomToken(12), alg, use: 'sig' };
}

// One signing key per project and algorithm, named `project:{id}:signing:{alg}` among the server's
// sealed keys (server_keys: generated once, sealed under the master key, re-sealed on rotation).
const keyName = (projectId: string, alg: SigningAlg) => `project:${projectId}:signing:${alg}`;

/**
 * The project's signing keys (private JWKs): the key of `alg` is generated on first use; keys of
 * algorithms the project used before stay published, so tokens they signed still verify.
 */
export async function projectSigningKeys(db: Db, box: SecretBox, projectId: string, alg: SigningAlg): Promise<JsonWebKey[]> {
  const { rows: stored } = await db.query('SELECT 1 FROM server_keys WHERE name = $1', [keyName(projectId, alg)]);
  // Generated only when missing; a key another instance stored meanwhile wins (getOrCreateServerKey).
  const fresh = stored.length > 0 ? null : await privateJwk(alg);
  const current = await getOrCreateServerKey<JsonWebKey>(db, box, keyName(projectId, alg), () => fresh ?? {});
  const others = SIGNING_ALGS.filter((a) => a !== alg).map((a) => keyName(projectId, a));
  const { rows } = await db.query<{ name: string }>('SELECT name FROM server_keys WHERE name = ANY($1)', [others]);
  const earlier = await Promise.all(rows.map((row) => getOrCreateServerKey<JsonWebKey>(db, box, row.name, () => ({}))));
  // The current algorithm's key first: oidc-provider signs with the first key that fits.
  return [current, ...earlier];
}

/** Keys signing the cookies of every project's issuer (the cookies' paths keep projects apart). */
export function issuerCookieKeys(db: Db, box: SecretBox): Promise<string[]> {
  return getOrCreateServerKey(db, box, 'provider.cookie_keys', () => [randomToken(), randomToken()]);
}
