import type { Db } from '../db/db.ts';
import type { Passkey, PasskeyStore } from '../oidc/passkeys.ts';

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
  };
}

/**
 * The console's administrators' passkeys (console_passkeys, migration 0021): the user at the
 * console's issuer is the verified, lower-cased email address itself, so every address is a user
 * there; whether its account may use the console is decided when the console signs it in.
 */
export function consolePasskeys(db: Db): PasskeyStore {
  return {
    userOf: async (identity) => (identity.type === 'email' ? { id: identity.value } : null),
    async passkeysOf(account) {
      const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM console_passkeys WHERE account = $1 ORDER BY created_at, id`, [account]);
      return rows.map(toPasskey);
    },
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
