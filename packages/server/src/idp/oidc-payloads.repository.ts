import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Db } from '../db/db.ts';

interface Row {
  payload: AdapterPayload;
  consumed_at: Date | null;
}

// oidc-provider checks expiry and consumption against its own clock (the system time), so the
// stored expiry does too; the injected clock governs the console's own rules only.
const now = () => new Date();

function withConsumed(row: Row | undefined): AdapterPayload | undefined {
  if (!row) return undefined;
  return row.consumed_at ? { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : row.payload;
}

/**
 * The built-in provider's storage (sessions, interactions, grants, codes, tokens) in the database,
 * so any instance can continue what another began.
 */
class DbAdapter implements Adapter {
  readonly #db: Db;
  readonly #kind: string;

  constructor(db: Db, kind: string) {
    this.#db = db;
    this.#kind = kind;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    await this.#db.query(
      `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, expires_at)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at`,
      [this.#kind, id, JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAt],
    );
  }

  async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.#db.query<Row>(
      `SELECT payload, consumed_at FROM oidc_payloads
        WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      [this.#kind, value, now()],
    );
    return withConsumed(rows[0]);
  }

  find(id: string) {
    return this.#findBy('id', id);
  }

  findByUid(uid: string) {
    return this.#findBy('uid', uid);
  }

  findByUserCode(userCode: string) {
    return this.#findBy('user_code', userCode);
  }

  async consume(id: string): Promise<void> {
    await this.#db.query('UPDATE oidc_payloads SET consumed_at = $3 WHERE kind = $1 AND id = $2', [this.#kind, id, now()]);
  }

  async destroy(id: string): Promise<void> {
    await this.#db.query('DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2', [this.#kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db.query('DELETE FROM oidc_payloads WHERE grant_id = $1', [grantId]);
  }
}

export function dbAdapterFactory(db: Db): (kind: string) => Adapter {
  return (kind) => new DbAdapter(db, kind);
}

export async function deleteExpiredOidcPayloads(db: Db): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE expires_at <= $1', [now()]);
}
