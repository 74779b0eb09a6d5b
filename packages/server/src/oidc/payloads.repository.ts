import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { SecretBox } from '../crypto.ts';
import { prepared, type Db } from '../db/db.ts';
import { changeOf, type EventChange } from '../events/audit-events.repository.ts';

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
    device: (deviceId: string) => box.hmac('oidc-device', deviceId),
  };
}

/**
 * An interaction's row read ahead in its request's first statement (with the project's issuer
 * state: provider/issuer-state.repository.ts), so the provider's find of it costs no second one.
 * The next find of that very row in this process within READ_AHEAD_MS takes it (once); a write or
 * delete of it here drops it first. A row another instance changes in that moment reads as it was
 * a moment before, as any read racing a write does.
 */
const readAhead = new Map<string, { row: Row | null; at: number }>();
const READ_AHEAD_MS = 1000;
const READ_AHEAD_MAX = 10_000;
const aheadKey = (issuer: string, kind: string, idRef: string) => `${issuer}\n${kind}\n${idRef}`;
/** The key of a row read ahead for a find by its uid (a session's, which a code or token depends on). */
const aheadUidKey = (issuer: string, kind: string, uidRef: string) => `${issuer}\n${kind}\nuid\n${uidRef}`;

/** The stored id of an interaction (what a read ahead of it asks for). */
export const interactionRefOf = (box: SecretBox, uid: string): string => oidcRefs(box).id('Interaction', uid);

/** A row read ahead as a statement's JSON gives it. */
interface ReadAheadRow {
  id: string;
  payload: string;
  consumed_at: string | Date | null;
}

/** An interaction read ahead, with the grant its result consents to (null: none, or none stored). */
export type ReadAheadInteraction = ReadAheadRow & { grant?: ReadAheadRow | null };

/** Keeps what a statement read of the interaction `idRef` at `issuer` (null: no such row, or expired), and of its grant. */
export function readAheadInteraction(issuer: string, idRef: string, row: ReadAheadInteraction | null): void {
  if (row?.grant) readAheadRow(issuer, 'Grant', row.grant.id, row.grant);
  readAheadRow(issuer, 'Interaction', idRef, row && { id: row.id, payload: row.payload, consumed_at: row.consumed_at });
}

function readAheadRow(issuer: string, kind: string, idRef: string, row: ReadAheadRow | null, key = aheadKey(issuer, kind, idRef)): void {
  const at = Date.now();
  for (const [old, entry] of readAhead) {
    if (at - entry.at < READ_AHEAD_MS && readAhead.size < READ_AHEAD_MAX) break;
    readAhead.delete(old);
  }
  readAhead.delete(key);
  readAhead.set(key, { row: row && { ...row, consumed_at: row.consumed_at === null ? null : new Date(row.consumed_at) }, at });
}

/** The row read ahead for this find, once, if it is fresh; undefined: ask the database. */
function takeReadAhead(key: string): Row | null | undefined {
  const entry = readAhead.get(key);
  if (!entry) return undefined;
  readAhead.delete(key);
  return Date.now() - entry.at < READ_AHEAD_MS ? entry.row : undefined;
}

/** The grant an interaction's result consents to, if any. */
function consentedGrantOf(payload: AdapterPayload): string | undefined {
  const consent: unknown = (payload.result as { consent?: unknown } | undefined)?.consent;
  const grantId = consent && typeof consent === 'object' ? (consent as { grantId?: unknown }).grantId : undefined;
  return typeof grantId === 'string' ? grantId : undefined;
}

/**
 * The passkey a sign-in used, carried from the login to the provider session in its `amr` (the one
 * login field oidc-provider keeps on the session besides the account). The adapter takes it out
 * again: the session row gets a `device_ref` (so revoking the device finds the sessions it started)
 * and no other artefact keeps it, so it never reaches a code, a token or an ID token's `amr`.
 */
const DEVICE_MARK = 'lk-device:';
export const deviceAmr = (deviceId: string): string => `${DEVICE_MARK}${deviceId}`;

function withoutDeviceMark(payload: AdapterPayload): { payload: AdapterPayload; deviceId: string | null } {
  if (!Array.isArray(payload.amr)) return { payload, deviceId: null };
  const amr = payload.amr as unknown[];
  const mark = amr.find((v): v is string => typeof v === 'string' && v.startsWith(DEVICE_MARK));
  if (mark === undefined) return { payload, deviceId: null };
  const rest = amr.filter((v) => v !== mark);
  const others: AdapterPayload = { ...payload };
  delete others.amr;
  return { payload: rest.length > 0 ? { ...others, amr: rest as string[] } : others, deviceId: mark.slice(DEVICE_MARK.length) };
}

/**
 * Whose artefacts: an issuer's key in `oidc_payloads` (a project's id, or CONSOLE_ISSUER), and for a
 * project's issuer the events its authorization codes are (docs/decisions/0014).
 */
export interface PayloadScope {
  issuer: string;
  events?: CodeEvents;
  /** A refresh token grant's event, written by the statement that stores the access token it issues (issue 38). */
  refreshGrants?: RefreshGrantEvents;
  /**
   * May one more sign-in interaction be stored (an authorization request that needs the pages)?
   * No: the request is refused as temporarily_unavailable and nothing is stored (docs/decisions/0028).
   */
  admitInteraction?: () => Promise<boolean>;
}

/**
 * A project issuer's authorization codes are events (docs/decisions/0014): issued and exchanged
 * are written inside the transaction that stores or consumes the code; a code presented again is
 * a refusal, written on its own.
 */
export interface CodeEvents {
  /** Stores the code (`store`, the INSERT) and writes its issued event, in one statement. */
  issued(db: Db, code: AdapterPayload, store: EventChange): Promise<void>;
  /** Consumes the code (`consume`, required) and writes its exchange, in one statement; false: consumed already, nothing written. */
  exchanged(db: Db, code: AdapterPayload, consume: EventChange): Promise<boolean>;
  reused(code: AdapterPayload | null): Promise<void>;
}

/**
 * A project issuer's refresh token grants are events too: a grant answered with tokens is written by
 * the statement that stores the access token it issues, the last thing the grant stores.
 */
export interface RefreshGrantEvents {
  /** Stores `token`, the access token of the refresh token grant under way (`store`), and writes the grant's event, in one statement. */
  accessTokenIssued(db: Db, token: AdapterPayload, store: EventChange): Promise<void>;
}

/** Is this request a refresh token grant at the token endpoint? */
function inRefreshGrant(): boolean {
  const oidc = Provider.ctx?.oidc;
  return oidc?.route === 'token' && oidc.params?.grant_type === 'refresh_token';
}

const UPSERT_SQL =
  prepared(`INSERT INTO oidc_payloads (issuer, kind, id, payload, grant_id, user_code, uid, account_ref, device_ref, expires_at, session_ref)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
           COALESCE($9::text,
             (SELECT s.device_ref FROM oidc_payloads s WHERE s.issuer = $1 AND s.kind = 'Session' AND s.uid = $11::text),
             (SELECT g.device_ref FROM oidc_payloads g WHERE g.issuer = $1 AND g.grant_id = $5::text AND g.device_ref IS NOT NULL LIMIT 1)),
           $10, $11::text)
         ON CONFLICT (issuer, kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
           user_code = EXCLUDED.user_code, uid = EXCLUDED.uid, account_ref = EXCLUDED.account_ref, device_ref = EXCLUDED.device_ref,
           expires_at = EXCLUDED.expires_at, session_ref = EXCLUDED.session_ref`);

const CONSUME_SQL = prepared(`UPDATE oidc_payloads SET consumed_at = $4
          WHERE issuer = $1 AND kind = $2 AND id = $3 AND consumed_at IS NULL RETURNING id`);

/** What is found with its grant and session read ahead (#findWithGrant): what the provider checks them against next. */
const WITH_GRANT = new Set(['AuthorizationCode', 'RefreshToken', 'AccessToken']);

/** Codes found and not yet consumed (their payloads, for the exchange's event), at most this many per issuer. */
const FOUND_CODES_MAX = 1000;
/** A code lives 60 s (FIXED_TTL): one found longer ago than this is read again. */
const FOUND_CODE_MS = 60_000;

/**
 * What a sealed payload is bound to: its issuer, kind and row. The issuer's part keeps the words it
 * had when only projects' issuers shared a table (migration 0021), so rows sealed then still open.
 */
const payloadContext = (issuer: string, kind: string, idRef: string) => `project_oidc_payloads:${issuer}:${kind}:${idRef}`;

/**
 * An issuer's storage (sessions, interactions, grants, codes, tokens) in the database, so any
 * instance can continue what another began. Every statement is led by the issuer's key ($1).
 */
class DbAdapter implements Adapter {
  readonly #db: Db;
  readonly #kind: string;
  readonly #box: SecretBox;
  readonly #refs: ReturnType<typeof oidcRefs>;
  readonly #issuer: string;
  /** The code events, for a project issuer's AuthorizationCode adapter only. */
  readonly #codeEvents: CodeEvents | undefined;
  /** The limit on new interactions, for the Interaction adapter only. */
  readonly #admitInteraction: (() => Promise<boolean>) | undefined;
  /** A refresh token grant's event, for a project issuer's AccessToken adapter only. */
  readonly #refreshGrants: RefreshGrantEvents | undefined;

  constructor(db: Db, box: SecretBox, kind: string, scope: PayloadScope) {
    this.#db = db;
    this.#box = box;
    this.#kind = kind;
    this.#refs = oidcRefs(box);
    this.#issuer = scope.issuer;
    this.#codeEvents = kind === 'AuthorizationCode' ? scope.events : undefined;
    this.#admitInteraction = kind === 'Interaction' ? scope.admitInteraction : undefined;
    this.#refreshGrants = kind === 'AccessToken' ? scope.refreshGrants : undefined;
  }

  #context(idRef: string): string {
    return payloadContext(this.#issuer, this.#kind, idRef);
  }

  /** `sql`'s $2… are `params`; $1 is the issuer. Each is a read or write by key, prepared (docs/decisions/0055). */
  #query<R>(sql: string, params: unknown[], db: Db = this.#db) {
    return db.query<R & object>(prepared(sql), [this.#issuer, ...params]);
  }

  /** Codes this adapter found, not yet consumed: idRef → payload, and when it was read. */
  readonly #found = new Map<string, { payload: AdapterPayload; at: number }>();

  #keepFound(idRef: string, payload: AdapterPayload): void {
    this.#found.delete(idRef);
    this.#found.set(idRef, { payload, at: Date.now() });
    for (const oldest of this.#found.keys()) {
      if (this.#found.size <= FOUND_CODES_MAX) break;
      this.#found.delete(oldest);
    }
  }

  /** The artefact `idRef` as stored, unless consumed (or gone). */
  async #unconsumed(idRef: string): Promise<AdapterPayload | undefined> {
    const { rows } = await this.#query<Row>(
      'SELECT id, payload FROM oidc_payloads WHERE issuer = $1 AND kind = $2 AND id = $3 AND consumed_at IS NULL',
      [this.#kind, idRef],
    );
    const row = rows[0];
    return (row && this.#open(row)) ?? undefined;
  }

  #takeFound(idRef: string): AdapterPayload | undefined {
    const entry = this.#found.get(idRef);
    this.#found.delete(idRef);
    return entry && Date.now() - entry.at < FOUND_CODE_MS ? entry.payload : undefined;
  }

  #open(row: { id: string; payload: string }): AdapterPayload | null {
    try {
      return this.#box.openJson<AdapterPayload>(row.payload, this.#context(row.id));
    } catch {
      return null;
    }
  }

  async upsert(id: string, given: AdapterPayload, expiresIn?: number): Promise<void> {
    // A new interaction (an authorization request sent to the pages) counts in its limits; saving its
    // result later does not.
    if (this.#admitInteraction && given.result === undefined && !(await this.#admitInteraction())) {
      throw new errors.TemporarilyUnavailable('too many sign-ins are under way; try again in a few minutes');
    }
    const expiresAt = typeof expiresIn === 'number' ? new Date(Date.now() + expiresIn * 1000) : null;
    const idRef = this.#refs.id(this.#kind, id);
    readAhead.delete(aheadKey(this.#issuer, this.#kind, idRef));
    if (given.uid) readAhead.delete(aheadUidKey(this.#issuer, this.#kind, this.#refs.uid(this.#kind, given.uid)));
    // A session keeps its device mark (it is how its device is known); anything else drops it.
    const stripped = withoutDeviceMark(given);
    const payload = this.#kind === 'Session' ? given : stripped.payload;
    const deviceRef = this.#kind === 'Session' && stripped.deviceId !== null ? this.#refs.device(stripped.deviceId) : null;
    // A provider session names its account: logout ends the account's sessions through it.
    const accountRef = this.#kind === 'Session' && typeof payload.accountId === 'string' ? this.#refs.account(payload.accountId) : null;
    // A grant's row is found by its grant id like everything issued under it (a device's revocation
    // ends them together); its payload names it as its jti. An interaction's row names the grant its
    // result consents to (read ahead with it at the resume, findIssuerState; revoking the grant ends it too).
    const grantId = this.#kind === 'Grant' ? id : this.#kind === 'Interaction' ? (payload.grantId ?? consentedGrantOf(payload)) : payload.grantId;
    // Codes and tokens are bound to the passkey of the session they came from, or of the grant they
    // continue (a rotated refresh token whose session has ended): docs/decisions/0028.
    const sessionUidRef = this.#kind !== 'Session' && typeof payload.sessionUid === 'string' ? this.#refs.uid('Session', payload.sessionUid) : null;
    const values = [
      this.#issuer,
      this.#kind,
      idRef,
      this.#box.sealJson(payload, this.#context(idRef)),
      grantId ? this.#refs.grant(grantId) : null,
      payload.userCode ? this.#refs.userCode(this.#kind, payload.userCode) : null,
      payload.uid ? this.#refs.uid(this.#kind, payload.uid) : null,
      accountRef,
      deviceRef,
      expiresAt,
      sessionUidRef,
    ];
    // A code and its issued event, a refresh grant's access token and the grant's event: one
    // statement each, atomic by itself (issue 38: no transaction).
    if (this.#codeEvents) await this.#codeEvents.issued(this.#db, payload, changeOf('stored', UPSERT_SQL, values));
    else if (this.#refreshGrants && inRefreshGrant())
      await this.#refreshGrants.accessTokenIssued(this.#db, payload, changeOf('stored', UPSERT_SQL, values));
    else await this.#db.query(UPSERT_SQL, values);
  }

  /**
   * A code or a token by its id, and in the same statement what the provider asks for next: the
   * grant it continues, and the session it is bound to (oidc-provider's checkSessionBinding finds
   * it by its uid; issue 38) — read ahead, each taken once by that find.
   */
  async #findWithGrant(ref: string): Promise<Row | undefined> {
    const { rows } = await this.#query<
      Row & {
        grant_row_id: string | null;
        grant_payload: string | null;
        grant_consumed_at: Date | null;
        session_ref: string | null;
        session_row_id: string | null;
        session_payload: string | null;
        session_consumed_at: Date | null;
      }
    >(
      `SELECT p.id, p.payload, p.consumed_at, g.id AS grant_row_id, g.payload AS grant_payload, g.consumed_at AS grant_consumed_at,
              p.session_ref, s.id AS session_row_id, s.payload AS session_payload, s.consumed_at AS session_consumed_at
         FROM oidc_payloads p
         LEFT JOIN LATERAL (
           SELECT id, payload, consumed_at FROM oidc_payloads g
            WHERE g.issuer = p.issuer AND g.grant_id = p.grant_id AND g.kind = 'Grant' AND (g.expires_at IS NULL OR g.expires_at > $4)
            LIMIT 1) g ON true
         LEFT JOIN LATERAL (
           SELECT id, payload, consumed_at FROM oidc_payloads s
            WHERE s.issuer = p.issuer AND s.kind = 'Session' AND s.uid = p.session_ref AND (s.expires_at IS NULL OR s.expires_at > $4)
            LIMIT 1) s ON true
        WHERE p.issuer = $1 AND p.kind = $2 AND p.id = $3 AND (p.expires_at IS NULL OR p.expires_at > $4)`,
      [this.#kind, ref, now()],
    );
    const row = rows[0];
    if (row?.grant_row_id && row.grant_payload !== null)
      readAheadRow(this.#issuer, 'Grant', row.grant_row_id, { id: row.grant_row_id, payload: row.grant_payload, consumed_at: row.grant_consumed_at });
    // A session that has ended is read ahead as none: the binding check fails without asking again.
    if (row?.session_ref) {
      const session =
        row.session_row_id && row.session_payload !== null
          ? { id: row.session_row_id, payload: row.session_payload, consumed_at: row.session_consumed_at }
          : null;
      readAheadRow(this.#issuer, 'Session', row.session_ref, session, aheadUidKey(this.#issuer, 'Session', row.session_ref));
    }
    return row;
  }

  async #findBy(column: 'id' | 'uid' | 'user_code', ref: string): Promise<AdapterPayload | undefined> {
    const ahead =
      column === 'id'
        ? takeReadAhead(aheadKey(this.#issuer, this.#kind, ref))
        : column === 'uid'
          ? takeReadAhead(aheadUidKey(this.#issuer, this.#kind, ref))
          : undefined;
    const withGrant = column === 'id' && ahead === undefined && WITH_GRANT.has(this.#kind);
    const row =
      ahead !== undefined
        ? ahead
        : withGrant
          ? await this.#findWithGrant(ref)
          : (
              await this.#query<Row>(
                `SELECT id, payload, consumed_at FROM oidc_payloads
                WHERE issuer = $1 AND kind = $2 AND ${column} = $3 AND (expires_at IS NULL OR expires_at > $4)`,
                [this.#kind, ref, now()],
              )
            ).rows[0];
    if (!row) return undefined;
    // Sealed under a key this server no longer has (rotated away): as good as gone.
    const payload = this.#open(row);
    if (!payload) return undefined;
    if (!row.consumed_at) {
      if (this.#codeEvents && column === 'id') this.#keepFound(ref, payload);
      return payload;
    }
    // A code presented again: the provider refuses it and revokes its grant; the event says so.
    await this.#codeEvents?.reused(payload);
    return { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
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

  /**
   * Marks an artefact used, once: of two requests racing with the same authorization code (on one
   * instance or two), the second finds it consumed here, every token of its grant is revoked (RFC
   * 6749 §4.1.2) and it is refused as invalid_grant — the provider's own check reads before it writes.
   */
  async consume(id: string): Promise<void> {
    const idRef = this.#refs.id(this.#kind, id);
    readAhead.delete(aheadKey(this.#issuer, this.#kind, idRef));
    const values = [this.#issuer, this.#kind, idRef, now()];
    let consumed: boolean;
    if (this.#codeEvents) {
      // The code as its find read it a moment ago in this request (a code's payload never changes),
      // else as stored: its exchange's event is written by the statement that consumes it.
      const code = this.#takeFound(idRef) ?? (await this.#unconsumed(idRef));
      consumed = code !== undefined && (await this.#codeEvents.exchanged(this.#db, code, changeOf('consumed', CONSUME_SQL, values, true)));
    } else {
      consumed = (await this.#db.query(CONSUME_SQL, values)).rows.length > 0;
    }
    if (consumed) return;
    const { rows: used } = await this.#query<{ id: string; payload: string; grant_id: string | null }>(
      'SELECT id, payload, grant_id FROM oidc_payloads WHERE issuer = $1 AND kind = $2 AND id = $3',
      [this.#kind, idRef],
    );
    const grantRef = used[0]?.grant_id;
    if (grantRef) await this.#query('DELETE FROM oidc_payloads WHERE issuer = $1 AND grant_id = $2', [grantRef]);
    await this.#codeEvents?.reused(used[0] ? this.#open(used[0]) : null);
    throw new errors.InvalidGrant(`${this.#kind} already consumed`);
  }

  async destroy(id: string): Promise<void> {
    const idRef = this.#refs.id(this.#kind, id);
    readAhead.delete(aheadKey(this.#issuer, this.#kind, idRef));
    // A session read ahead by its uid is known here by that uid only: every one of this issuer goes.
    if (this.#kind === 'Session') {
      const prefix = aheadUidKey(this.#issuer, 'Session', '');
      for (const key of readAhead.keys()) if (key.startsWith(prefix)) readAhead.delete(key);
    }
    await this.#query('DELETE FROM oidc_payloads WHERE issuer = $1 AND kind = $2 AND id = $3', [this.#kind, idRef]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#query('DELETE FROM oidc_payloads WHERE issuer = $1 AND grant_id = $2', [this.#refs.grant(grantId)]);
  }
}

export function dbAdapterFactory(db: Db, box: SecretBox, scope: PayloadScope): (kind: string) => Adapter {
  return (kind) => new DbAdapter(db, box, kind, scope);
}

/** Ends every provider session of `accountId` at `issuer` (console logout): the next sign-in asks again. */
export async function endSessionsOfAccount(db: Db, box: SecretBox, issuer: string, accountId: string): Promise<void> {
  await db.query(`DELETE FROM oidc_payloads WHERE issuer = $1 AND kind = 'Session' AND account_ref = $2`, [issuer, oidcRefs(box).account(accountId)]);
}

/** A provider session that ended: whose it was, and the session id (`sid`) each of its clients knows. */
export interface EndedSession {
  accountId: string;
  /** client id → the sid that client's ID tokens carry (null: none known). */
  sids: Record<string, string | null>;
}

interface SessionPayload {
  accountId?: unknown;
  authorizations?: Record<string, { grantId?: unknown; sid?: unknown }>;
}

/** What a person's sessions, grants, codes and tokens are stored as (each row names its account). */
const ACCOUNT_KINDS = ['Session', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken'];

/**
 * Deletes the rows at `issuer` that `where` names ($1 is the issuer, $2… `params`), then the grants
 * of the sessions among them with every code and token issued under those grants. Answers the
 * sessions ended (their back-channel logout notices: docs/decisions/0029).
 */
async function endSessionsWhere(db: Db, box: SecretBox, issuer: string, where: string, params: unknown[]): Promise<EndedSession[]> {
  const refs = oidcRefs(box);
  const { rows } = await db.query<{ kind: string; id: string; payload: string }>(
    `DELETE FROM oidc_payloads WHERE issuer = $1 AND (${where}) RETURNING kind, id, payload`,
    [issuer, ...params],
  );
  const ended: EndedSession[] = [];
  // A grant stored before its row carried its grant id (migration 0022) is named by its sessions.
  const grantIds = new Set<string>();
  for (const row of rows) {
    if (row.kind !== 'Session') continue;
    let session: SessionPayload;
    try {
      session = box.openJson<SessionPayload>(row.payload, payloadContext(issuer, 'Session', row.id));
    } catch {
      // Sealed under a key this server no longer has: its grants cannot be named (and expire with it).
      continue;
    }
    const sids: Record<string, string | null> = {};
    for (const [clientId, authorization] of Object.entries(session.authorizations ?? {})) {
      if (typeof authorization.grantId === 'string') grantIds.add(authorization.grantId);
      sids[clientId] = typeof authorization.sid === 'string' ? authorization.sid : null;
    }
    if (typeof session.accountId === 'string') ended.push({ accountId: session.accountId, sids });
  }
  for (const grantId of grantIds) {
    await db.query(`DELETE FROM oidc_payloads WHERE issuer = $1 AND (grant_id = $2 OR (kind = 'Grant' AND id = $3))`, [
      issuer,
      refs.grant(grantId),
      refs.id('Grant', grantId),
    ]);
  }
  return ended;
}

/**
 * Ends everything at `issuer` that the passkey `deviceId` started (its revocation,
 * docs/decisions/0013, 0028): its provider sessions, the grants they hold and every code, access
 * and refresh token issued under those grants — an offline refresh token too, whose session may
 * have ended.
 */
export function endSessionsOfDevice(db: Db, box: SecretBox, issuer: string, deviceId: string): Promise<EndedSession[]> {
  return endSessionsWhere(
    db,
    box,
    issuer,
    'device_ref = $2 OR grant_id IN (SELECT grant_id FROM oidc_payloads WHERE issuer = $1 AND device_ref = $2 AND grant_id IS NOT NULL)',
    [oidcRefs(box).device(deviceId)],
  );
}

/**
 * Ends everything of `accountId` at `issuer` (issue 24: blocking, erasure, "end all sessions"):
 * every session, grant, code and token of theirs, offline ones included.
 */
export function endSessionsOfUser(db: Db, box: SecretBox, issuer: string, accountId: string): Promise<EndedSession[]> {
  return endSessionsWhere(db, box, issuer, 'kind = ANY($3::text[]) AND account_ref = $2', [oidcRefs(box).account(accountId), ACCOUNT_KINDS]);
}

/** Ends the one session `sessionId` (a row id, as sessionsOfUser answers it) of `accountId`, with its grants and their tokens. */
export function endSessionOfUser(db: Db, box: SecretBox, issuer: string, accountId: string, sessionId: string): Promise<EndedSession[]> {
  return endSessionsWhere(db, box, issuer, `kind = 'Session' AND id = $2 AND account_ref = $3`, [sessionId, oidcRefs(box).account(accountId)]);
}

/** One open provider session of a person: its row id (not its cookie), times, the passkey that started it, its clients. */
export interface OpenSession {
  id: string;
  startedAt: Date | null;
  expiresAt: Date | null;
  /** The keyed hash of the passkey that started it (oidcRefs.device), or null. */
  deviceRef: string | null;
  clientIds: string[];
}

/** The open provider sessions of `accountId` at `issuer`, newest first. */
export async function sessionsOfUser(db: Db, box: SecretBox, issuer: string, accountId: string): Promise<OpenSession[]> {
  const { rows } = await db.query<{ id: string; payload: string; expires_at: Date | null; device_ref: string | null }>(
    `SELECT id, payload, expires_at, device_ref FROM oidc_payloads
      WHERE issuer = $1 AND kind = 'Session' AND account_ref = $2 AND (expires_at IS NULL OR expires_at > $3)`,
    [issuer, oidcRefs(box).account(accountId), now()],
  );
  const open: OpenSession[] = [];
  for (const row of rows) {
    let session: SessionPayload & { loginTs?: unknown };
    try {
      session = box.openJson<SessionPayload & { loginTs?: unknown }>(row.payload, payloadContext(issuer, 'Session', row.id));
    } catch {
      continue;
    }
    open.push({
      id: row.id,
      startedAt: typeof session.loginTs === 'number' ? new Date(session.loginTs * 1000) : null,
      expiresAt: row.expires_at ? new Date(row.expires_at) : null,
      deviceRef: row.device_ref,
      clientIds: Object.keys(session.authorizations ?? {}),
    });
  }
  return open.sort((a, b) => (b.startedAt?.getTime() ?? 0) - (a.startedAt?.getTime() ?? 0));
}

export async function deleteExpiredOidcPayloads(db: Db): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE expires_at <= $1', [now()]);
}
