import { generateKeyPair, type JsonWebKey, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import type { Issuer, SigningKey } from '@latchkey/domain';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import {
  deleteRetiredKeys,
  getOrCreateServerKey,
  hasServerKey,
  keepSigning,
  lockServerKey,
  publishedKeyRows,
  storeSealedKey,
} from './server-keys.repository.ts';

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

/** An issuer's keys' names start so: its current key of each algorithm, and those rotated away (`…:{alg}:{kid}`). */
const prefixOf = (issuer: string) => `project:${issuer}:signing:`;

/**
 * An issuer's signing keys (private JWKs): the key of `alg` signs (generated on first use); keys
 * that stopped signing — rotated away, or of an algorithm the issuer left — stay published until
 * their `retire_at`, so the tokens they signed still verify (docs/decisions/0028). The first time
 * the issuer is built without an algorithm, that algorithm's key starts retiring (`graceSeconds`);
 * an algorithm chosen again before then signs again with its key.
 */
export async function issuerSigningKeys(db: Db, box: SecretBox, issuer: string, alg: SigningAlg, graceSeconds: number): Promise<JsonWebKey[]> {
  const name = keyName(issuer, alg);
  // Generated only when missing; a key another instance stored meanwhile wins (getOrCreateServerKey).
  const fresh = (await hasServerKey(db, name)) ? null : await privateJwk(alg);
  const current = await getOrCreateServerKey<JsonWebKey>(db, box, name, () => fresh ?? {});
  const prefix = prefixOf(issuer);
  // RS256 is always supported (OpenID Connect Discovery §3, Core §15.1): beside another algorithm's
  // key, its key stays published and never retires.
  const rs256 = keyName(issuer, 'RS256');
  if (alg !== 'RS256') {
    const generated = (await hasServerKey(db, rs256)) ? null : await privateJwk('RS256');
    await getOrCreateServerKey<JsonWebKey>(db, box, rs256, () => generated ?? {});
  }
  const names = await keepSigning(db, { prefix, current: name, rs256, graceSeconds });
  const earlier = await Promise.all(names.map((earlierName) => getOrCreateServerKey<JsonWebKey>(db, box, earlierName, () => ({}))));
  // The current algorithm's key first: oidc-provider signs with the first key that fits.
  return [current, ...earlier];
}

/**
 * Rotates an issuer's signing key of `alg`: a new key signs from now on; the previous one is kept,
 * published, until now + `graceSeconds`. Inside the caller's transaction. Answers both key ids.
 */
export async function rotateSigningKey(
  db: Db,
  box: SecretBox,
  issuer: string,
  alg: SigningAlg,
  graceSeconds: number,
): Promise<{ previous: string; current: string }> {
  const name = keyName(issuer, alg);
  const next = await privateJwk(alg);
  // The row is locked until commit: two rotations at once follow one another.
  await getOrCreateServerKey<JsonWebKey>(db, box, name, () => next);
  await lockServerKey(db, name);
  const previous = await getOrCreateServerKey<JsonWebKey>(db, box, name, () => next);
  if (previous.kid === next.kid) return { previous: String(previous.kid), current: String(next.kid) };
  const retireAt = new Date(Date.now() + graceSeconds * 1000);
  await storeSealedKey(db, box, `${name}:${String(previous.kid)}`, previous, retireAt);
  await storeSealedKey(db, box, name, next, null);
  return { previous: String(previous.kid), current: String(next.kid) };
}

/** An issuer's keys as the console lists them: the one signing with `alg`, then those still published. */
export async function listSigningKeys(db: Db, box: SecretBox, issuer: string, alg: SigningAlg): Promise<SigningKey[]> {
  const rows = await publishedKeyRows(db, prefixOf(issuer), keyName(issuer, alg));
  const keys: SigningKey[] = [];
  for (const row of rows) {
    const key = await getOrCreateServerKey<JsonWebKey>(db, box, row.name, () => ({}));
    const signing = row.name === keyName(issuer, alg);
    // RS256's key beside another algorithm's: published, for clients that need RS256.
    const published = !signing && row.name === keyName(issuer, 'RS256') && row.retire_at === null;
    keys.push({
      kid: String(key.kid),
      alg: key.alg as SigningAlg,
      status: signing ? 'signing' : published ? 'published' : 'retiring',
      createdAt: row.created_at.toISOString(),
      retiresAt: signing || row.retire_at === null ? null : row.retire_at.toISOString(),
    });
  }
  return keys;
}

/** Forgets the keys whose grace has passed (their tokens have all expired). */
export async function deleteRetiredSigningKeys(db: Db): Promise<void> {
  await deleteRetiredKeys(db, 'project:%:signing:%');
}

/** Keys signing the cookies of every issuer (the cookies' paths keep issuers apart). */
export function issuerCookieKeys(db: Db, box: SecretBox): Promise<string[]> {
  return getOrCreateServerKey(db, box, 'provider.cookie_keys', () => [randomToken(), randomToken()]);
}
