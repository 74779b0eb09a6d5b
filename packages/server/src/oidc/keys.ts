import { generateKeyPair, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { SIGNING_ALGS, type Issuer } from '@latchkey/domain';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { getOrCreateServerKey } from './server-keys.repository.ts';

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

// One signing key per issuer and algorithm, named `project:{issuer}:signing:{alg}` among the server's
// sealed keys (server_keys: generated once, sealed under the master key, re-sealed on rotation). The
// name, and so its sealing context, is the one projects' keys had before the console's provider
// became an issuer too (migration 0021): keys stored then still open.
const keyName = (issuer: string, alg: SigningAlg) => `project:${issuer}:signing:${alg}`;

/**
 * An issuer's signing keys (private JWKs): the key of `alg` is generated on first use; keys of
 * algorithms the issuer used before stay published, so tokens they signed still verify.
 */
export async function issuerSigningKeys(db: Db, box: SecretBox, issuer: string, alg: SigningAlg): Promise<JsonWebKey[]> {
  const { rows: stored } = await db.query('SELECT 1 FROM server_keys WHERE name = $1', [keyName(issuer, alg)]);
  // Generated only when missing; a key another instance stored meanwhile wins (getOrCreateServerKey).
  const fresh = stored.length > 0 ? null : await privateJwk(alg);
  const current = await getOrCreateServerKey<JsonWebKey>(db, box, keyName(issuer, alg), () => fresh ?? {});
  const others = SIGNING_ALGS.filter((a) => a !== alg).map((a) => keyName(issuer, a));
  const { rows } = await db.query<{ name: string }>('SELECT name FROM server_keys WHERE name = ANY($1)', [others]);
  const earlier = await Promise.all(rows.map((row) => getOrCreateServerKey<JsonWebKey>(db, box, row.name, () => ({}))));
  // The current algorithm's key first: oidc-provider signs with the first key that fits.
  return [current, ...earlier];
}

/** Keys signing the cookies of every issuer (the cookies' paths keep issuers apart). */
export function issuerCookieKeys(db: Db, box: SecretBox): Promise<string[]> {
  return getOrCreateServerKey(db, box, 'provider.cookie_keys', () => [randomToken(), randomToken()]);
}
