import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';

interface Row {
  id: string;
  payload: string;
  consumed_at: Date | null;
}

// oidc-provider checks expiry and consumption against its own clock (the system time), so the
// stored expiry does too; the injected clock governs the console's own rules only.
const now = () => new Date();

/**
 * Column values are keyed hashes of the provider's ids (session ids, token ids, grant ids, uids):
 * a copy of the table cannot be turned back into a cookie or a token. The payload holds token
 * material (jti, claims), so it is sealed, bound to its row.
 */
export function oidcRefs(box: SecretBox) {
  return {
    id: (kind: string, id: string) => box.hmac('oidc-id', `${kind}\n${id}`),
    grant: (grantId: string) => box.hmac('oidc-grant', grantId),
    uid: (kind: string, uid: string) => box.hmac('oidc-uid', `${kind}\n${uid}`),
    userCode: (kind: string, userCode: string) => box.hmac('oidc-user-code', `${kind}\n${userCode}`),
    account: (accountId: string) => box.hmac('oidc-account', accountId),
  };
}

/**
 * The built-in provider's storage (sessions, interactions, grants, codes, tokens) in the database,
 * so any instance can continue what another began.
 */
class DbAdapter implements Adapter {
  readonly #db: Db;
  readonly #kind: string;
  readonly #box: SecretBox;
  readonly #refs: ReturnType<typeof oidcRefs>;

  constructor(db: Db, box: SecretBox, kind: string) {
    this.#db = db;
    this.#box = box;
    this.#kind = kind;
    this.#refs = oidcRefs(box);
  }

  #context(idRef: string): string {
    return `oidc_payloads:${this.#kind}:${idRef}`;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    const idRef = this.#refs.id(this.#kind, id);
    // A provider session names its account: logout ends the account's sessions through it.
    const accountRef = this.#kind === 'Session' && typeof payload.accountId === 'string' ? this.#refs.account(payload.accountId) : null;
    await this.#db.query(
      `INSERT INTO oidc_payloads (kind, id, payload, grant_id, user_code, uid, account_ref, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, account_ref = EXCLUDED.account_ref, expires_at = EXCLUDED.expires_at`,
      [
        this.#kind,
        idRef,
        this.#box.sealJson(payload, this.#context(idRef)),
        payload.grantId ? this.#refs.grant(payload.grantId) : null,
        payload.userCode ? this.#refs.userCode(this.#kind, payload.userCode) : null,
        payload.uid ? this.#refs.uid(this.#kind, payload.uid) : null,
        accountRef,
        expiresAt,
      ],
    );
  }

  async #findBy(column: 'id' | 'uid' | 'user_code', ref: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.#db.query<Row>(
      `SELECT id, payload, consumed_at FROM oidc_payloads
        WHERE kind = $1 AND ${column} = $2 AND (expires_at IS NULL OR expires_at > $3)`,
      [this.#kind, ref, now()],
    );
    const row = rows[0];
    if (!row) return undefined;
    let payload: AdapterPayload;
    try {
      payload = this.#box.openJson<AdapterPayload>(row.payload, this.#context(row.id));
    } catch {
      // Sealed under a key this server no longer has (rotated away): as good as gone.
      return undefined;
    }
    return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
  }

  find(id: string) {
    return this.#findBy('id', this.#refs.id(this.#kind, id));
  }

  findByUid(uid: string) {
    return this.#findBy('uid', this.#refs.uid(this.#kind, uid));
  }

  findByUserCode(userCode: string) {
    return this.#findBy('user_code', this.#refs.userCode(this.#kind, userCode));
  }

  async consume(id: string): Promise<void> {
    await this.#db.query('UPDATE oidc_payloads SET consumed_at = $3 WHERE kind = $1 AND id = $2', [this.#kind, this.#refs.id(this.#kind, id), now()]);
  }

  async destroy(id: string): Promise<void> {
    await this.#db.query('DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2', [this.#kind, this.#refs.id(this.#kind, id)]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db.query('DELETE FROM oidc_payloads WHERE grant_id = $1', [this.#refs.grant(grantId)]);
  }
}

export function dbAdapterFactory(db: Db, box: SecretBox): (kind: string) => Adapter {
  return (kind) => new DbAdapter(db, box, kind);
}

/** Ends every provider session of `accountId` (console logout): the next sign-in asks for a code. */
export async function deleteProviderSessions(db: Db, box: SecretBox, accountId: string): Promise<void> {
  await db.query(`DELETE FROM oidc_payloads WHERE kind = 'Session' AND account_ref = $1`, [oidcRefs(box).account(accountId)]);
}

export async function deleteExpiredOidcPayloads(db: Db): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE expires_at <= $1', [now()]);
}
