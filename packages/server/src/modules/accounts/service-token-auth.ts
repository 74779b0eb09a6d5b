import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import type { BearerAuthenticator } from '../../http/auth.ts';
import { findAccountById, listPermissions } from './accounts.repository.ts';
import { SERVICE_TOKEN_PREFIX, serviceTokenHash } from './service-accounts.ts';
import { findServiceTokenByHash, touchServiceToken } from './service-tokens.repository.ts';

/** A token's last use is written at most this often (or when its address changes): not one write per call. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Issue 12: `Authorization: Bearer <token>` of a service account. The token is looked up by its
 * keyed hash; it works while it exists (not revoked or rotated), has not expired, and its account
 * is active. Its last use (time, address) is noted.
 */
export function serviceTokenAuthenticator(deps: { db: Db; clock: Clock; secretBox: Pick<SecretBox, 'hmac'> }): BearerAuthenticator {
  const { db, clock, secretBox } = deps;
  return async (token, origin) => {
    if (!token.startsWith(SERVICE_TOKEN_PREFIX) || token.length > 200) return null;
    const found = await findServiceTokenByHash(db, serviceTokenHash(secretBox, token));
    if (!found) return null;
    const now = clock.now();
    if (found.expiresAt && found.expiresAt.getTime() <= now.getTime()) return null;
    const account = await findAccountById(db, found.accountId);
    if (!account || !account.active || !account.isServiceAccount) return null;
    const ip = origin.ip;
    if (!found.lastUsedAt || now.getTime() - found.lastUsedAt.getTime() >= TOUCH_EVERY_MS || found.lastUsedIp !== ip) {
      await touchServiceToken(db, account.id, now, ip);
    }
    return { accountId: account.id, email: null, permissions: await listPermissions(db, account.id), via: 'bearer' };
  };
}
