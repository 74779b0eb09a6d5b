import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { Passkey, PasskeyStore } from '../oidc/passkeys.ts';
import { credentialHeldByAProject } from '../people/devices.repository.ts';

interface Row {
  id: string;
  account: string;
  public_key: string;
  counter: string | number;
  transports: string[] | null;
  name: string;
}

const COLUMNS = 'id, account, public_key, counter, transports, name';

/** The one boundary function of an administrator's passkey row. */
function toPasskey(row: Row): Passkey {
  return {
    id: row.id,
    userId: row.account,
    publicKey: row.public_key,
    counter: Number(row.counter),
    transports: row.transports ?? [],
    name: row.name,
    revoked: false,
    registeredWith: 'email_code',
    // The console's issuer is at PUBLIC_URL: its passkeys' relying party is PUBLIC_URL's host.
    rpId: null,
  };
}

/**
 * The console's administrators' passkeys (console_passkeys, migration 0021): the user at the
 * console's issuer is the verified, lower-cased email address itself. Only an active staff account
 * is offered one and may register one (an address that is no account, or an inactive or service
 * account, signs in by code as before); deactivating the account deletes them
 * (deleteConsolePasskeys). The WebAuthn user handle is a keyed hash of the address: 32 bytes that
 * name nobody.
 */
export function consolePasskeys(db: Db, secretBox: Pick<SecretBox, 'hmac'>): PasskeyStore {
  return {
    userOf: async (identity) => (identity.type === 'email' ? { id: identity.value } : null),
    async mayRegister(account) {
      const { rows } = await db.query('SELECT 1 FROM accounts WHERE email = $1 AND active AND NOT is_service_account', [account]);
      return rows.length === 1;
    },
    userHandle: (account) => new Uint8Array(Buffer.from(secretBox.hmac('console-passkey-user', account), 'base64url')),
    async passkeysOf(account) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM console_passkeys WHERE account = $1 ORDER BY created_at, id`, [account]);
      return rows.map(toPasskey);
    },
    // The projects on the shared path share this relying party (docs/decisions/0048).
    heldElsewhere: (id) => credentialHeldByAProject(db, id),
    async find(id) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM console_passkeys WHERE id = $1`, [id]);
      return rows[0] ? toPasskey(rows[0]) : null;
    },
    async markUsed(tx, p) {
      const { rows } = await tx.query('UPDATE console_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1 RETURNING id', [
        p.id,
        p.counter,
        p.now,
      ]);
      return rows.length === 1;
    },
    async insert(tx, p) {
      const { rows } = await tx.query(
        `INSERT INTO console_passkeys (id, account, public_key, counter, transports, name, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [p.id, p.userId, p.publicKey, p.counter, p.transports, p.name, p.createdAt],
      );
      return rows.length === 1;
    },
  };
}

/** An account's passkeys at the console's issuer end with its deactivation (accounts.service.ts). */
export async function deleteConsolePasskeys(db: Db, account: string): Promise<void> {
  await db.query('DELETE FROM console_passkeys WHERE account = $1', [account]);
}
