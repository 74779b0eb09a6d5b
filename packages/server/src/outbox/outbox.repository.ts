import type { Db } from '../db/db.ts';

// The outbox's one table (migration 0033, docs/decisions/0045): every kind's messages, their
// claims, their settling and the delivery log. The audit event writer queues webhook messages in
// the event's own statement (events/audit-events.repository.ts), the one insert made elsewhere.

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

/** One message of the outbox: who it goes to, what it says, and what its delivery came to so far. */
export interface OutboxMessage {
  projectId: string;
  kind: string;
  /** The application's client id, the webhook endpoint's id: the unit a kind sent in order keeps in order. */
  recipient: string;
  id: string;
  /** Whom it is about, in its kind's terms (erasure forgets by it). */
  subject: string | null;
  /** What it says in a word (why a session ended, a webhook's event type). */
  topic: string;
  /** What its kind builds each attempt from. */
  payload: string;
  createdAt: Date;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastMs: number | null;
  lastReason: string | null;
  deliveredAt: Date | null;
}

/** A message as the deliverer claimed it, with what its kind reads with the claim (OutboxKind.context). */
export interface ClaimedMessage extends OutboxMessage {
  context: unknown;
}

/** A message as its feature queues it. */
export interface NewOutboxMessage {
  recipient: string;
  id: string;
  subject: string | null;
  topic: string;
  payload: string;
}

/** Where one message is: its key. */
export type OutboxKey = Pick<OutboxMessage, 'projectId' | 'kind' | 'recipient' | 'id'>;

const columns = (m: string) =>
  `${m}.project_id AS "projectId", ${m}.kind, ${m}.recipient, ${m}.id, ${m}.subject, ${m}.topic, ${m}.payload, ${m}.created_at AS "createdAt",
   ${m}.status, ${m}.attempts, ${m}.next_attempt_at AS "nextAttemptAt", ${m}.last_status AS "lastStatus", ${m}.last_ms AS "lastMs",
   ${m}.last_reason AS "lastReason", ${m}.delivered_at AS "deliveredAt"`;

/** The columns, but its kind, a previous version's row is moved in with (adopt), by these names. */
const MOVED = `recipient, id, subject, topic, payload, created_at, status, attempts, next_attempt_at, last_status, last_ms, last_reason, delivered_at`;

export interface EnqueueOptions {
  /**
   * SQL, a condition on `x` (the new message: project_id, recipient, id, subject, topic, payload):
   * the messages that do not meet it are not queued (a back-channel notice goes only to an
   * application with a back-channel logout URI now).
   */
  onlyIf?: string;
  /** At most this many pending messages per recipient and subject: more are not queued. */
  pendingPerSubject?: number;
}

/** Queues `messages` of `kind`, due at once; answers those queued. */
export async function enqueue(
  tx: Db,
  q: { projectId: string; kind: string; now: Date; messages: readonly NewOutboxMessage[] },
  options: EnqueueOptions = {},
): Promise<OutboxMessage[]> {
  if (q.messages.length === 0) return [];
  const params: unknown[] = [
    q.projectId,
    q.kind,
    q.now,
    q.messages.map((m) => m.recipient),
    q.messages.map((m) => m.id),
    q.messages.map((m) => m.subject),
    q.messages.map((m) => m.topic),
    q.messages.map((m) => m.payload),
  ];
  const conditions: string[] = [];
  if (options.onlyIf) conditions.push(`(${options.onlyIf})`);
  if (options.pendingPerSubject !== undefined) {
    conditions.push(`(SELECT count(*) FROM outbox_messages p
                       WHERE p.project_id = x.project_id AND p.subject = x.subject AND p.kind = $2 AND p.recipient = x.recipient
                         AND p.status = 'pending') < $${params.push(options.pendingPerSubject)}`);
  }
  const { rows } = await tx.query<OutboxMessage>(
    `INSERT INTO outbox_messages AS m (project_id, kind, recipient, id, subject, topic, payload, created_at, status, next_attempt_at)
     SELECT x.project_id, $2, x.recipient, x.id, x.subject, x.topic, x.payload, $3, 'pending', $3
       FROM (SELECT $1::text AS project_id, u.*
               FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(recipient, id, subject, topic, payload)) x
      ${conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : ''}
     RETURNING ${columns('m')}`,
    params,
  );
  return rows;
}

export interface ClaimQuery {
  kind: string;
  now: Date;
  /** Until when the claimed messages are this instance's (then another's again). */
  leaseUntil: Date;
  batch: number;
  /** Each recipient's oldest pending message only, and only once it is due: its messages go in order. */
  ordered: boolean;
  /** At most this many of one project in a batch. */
  perProject?: number;
  /**
   * SQL, a condition on `m` (an outbox_messages row): only the messages meeting it are claimed;
   * ordered, it is asked of each recipient's oldest pending message, which holds up the others.
   */
  claimable?: string;
  /** SQL, a query on `due` (project_id, recipient, id of the message claimed): its row comes back as the message's `context`. */
  context?: string;
}

/** What a recipient's first pending message is claimed by. */
const HEAD = 'm.project_id, m.kind, m.recipient, m.id, m.created_at, m.attempts, m.next_attempt_at';

/**
 * Takes the due messages of a kind for a lease, raising each one's attempt count, which fences
 * what is written after the attempt (settle). Unordered: the oldest due, FOR UPDATE SKIP LOCKED
 * (two instances never take one message). Ordered: the first pending message of each recipient
 * once it is due; the count only rises if no other instance raised it first. The first messages
 * are found by skipping from recipient to recipient down outbox_messages_order_idx (one descent
 * per recipient with messages pending, however many are pending behind each).
 */
export async function claimDue(db: Db, c: ClaimQuery): Promise<ClaimedMessage[]> {
  const claimable = c.claimable ? `AND (${c.claimable})` : '';
  const context = c.context ? `LEFT JOIN LATERAL (${c.context}) context ON true` : '';
  const returning = `${columns('m')}, ${c.context ? 'CASE WHEN context IS NULL THEN NULL ELSE to_jsonb(context) END' : 'NULL'} AS context`;
  const params: unknown[] = [c.now, c.leaseUntil, c.batch, c.kind];
  const capped = (rows: string) =>
    c.perProject === undefined
      ? `SELECT * FROM ${rows} ORDER BY next_attempt_at LIMIT $3`
      : `SELECT * FROM (SELECT r.*, row_number() OVER (PARTITION BY project_id ORDER BY next_attempt_at) AS nth FROM ${rows}) ranked
          WHERE nth <= $${params.push(c.perProject)} ORDER BY next_attempt_at LIMIT $3`;
  const sql = c.ordered
    ? `WITH RECURSIVE heads AS (
         (SELECT ${HEAD} FROM outbox_messages m WHERE m.kind = $4 AND m.status = 'pending'
           ORDER BY m.project_id, m.recipient, m.created_at, m.id LIMIT 1)
         UNION ALL
         SELECT next.* FROM heads h CROSS JOIN LATERAL (
           SELECT ${HEAD} FROM outbox_messages m
            WHERE m.kind = $4 AND m.status = 'pending' AND (m.project_id, m.recipient) > (h.project_id, h.recipient)
            ORDER BY m.project_id, m.recipient, m.created_at, m.id LIMIT 1) next
       ), due AS (${capped(`(SELECT * FROM heads m WHERE m.next_attempt_at <= $1 ${claimable}) r`)})
       UPDATE outbox_messages m SET attempts = m.attempts + 1, next_attempt_at = $2
         FROM due ${context}
        WHERE m.project_id = due.project_id AND m.kind = $4 AND m.recipient = due.recipient AND m.id = due.id
          AND m.status = 'pending' AND m.attempts = due.attempts
       RETURNING ${returning}`
    : `UPDATE outbox_messages m SET attempts = m.attempts + 1, next_attempt_at = $2
         FROM (SELECT project_id, kind, recipient, id FROM outbox_messages
                WHERE (project_id, kind, recipient, id) IN (
                  SELECT project_id, kind, recipient, id FROM (${capped(
                    `(SELECT m.project_id, m.kind, m.recipient, m.id, m.next_attempt_at FROM outbox_messages m
                       WHERE m.kind = $4 AND m.status = 'pending' AND m.next_attempt_at <= $1 ${claimable}) r`,
                  )}) picked)
                  AND status = 'pending' AND next_attempt_at <= $1
                FOR UPDATE SKIP LOCKED) due ${context}
        WHERE m.project_id = due.project_id AND m.kind = due.kind AND m.recipient = due.recipient AND m.id = due.id
       RETURNING ${returning}`;
  const { rows } = await db.query<ClaimedMessage>(sql, params);
  return rows;
}

/** What one attempt came to, as its message keeps it. */
export interface Settling {
  status: OutboxStatus;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastMs: number | null;
  lastReason: string | null;
  deliveredAt: Date | null;
  /** Settled (delivered or given up) and its kind keeps no log: the message goes. */
  remove: boolean;
}

/** Writes what the attempt came to, only while the message is still that attempt's; answers whether it was. */
export async function settleMessage(tx: Db, m: OutboxKey & { attempts: number }, s: Settling): Promise<boolean> {
  const key = [m.projectId, m.kind, m.recipient, m.id, m.attempts];
  const fence = `project_id = $1 AND kind = $2 AND recipient = $3 AND id = $4 AND attempts = $5 AND status = 'pending'`;
  const { rows } = s.remove
    ? await tx.query(`DELETE FROM outbox_messages WHERE ${fence} RETURNING 1`, key)
    : await tx.query(
        `UPDATE outbox_messages SET status = $6, next_attempt_at = $7, last_status = $8, last_ms = $9, last_reason = $10, delivered_at = $11
          WHERE ${fence} RETURNING 1`,
        [...key, s.status, s.nextAttemptAt, s.lastStatus, s.lastMs, s.lastReason, s.deliveredAt],
      );
  return rows.length > 0;
}

/** A recipient's messages, newest first (outbox_messages_log_idx). */
export async function messagesTo(db: Db, r: { projectId: string; kind: string; recipient: string }, limit: number): Promise<OutboxMessage[]> {
  const { rows } = await db.query<OutboxMessage>(
    `SELECT ${columns('m')} FROM outbox_messages m WHERE m.project_id = $1 AND m.kind = $2 AND m.recipient = $3
      ORDER BY m.created_at DESC, m.id DESC LIMIT $4`,
    [r.projectId, r.kind, r.recipient, limit],
  );
  return rows;
}

/** Queues a delivered or given-up message again, as it was (same id and body), due now; null: no such settled message. */
export async function requeue(tx: Db, key: OutboxKey, now: Date): Promise<OutboxMessage | null> {
  const { rows } = await tx.query<OutboxMessage>(
    `UPDATE outbox_messages m SET status = 'pending', attempts = 0, next_attempt_at = $5, delivered_at = NULL
      WHERE m.project_id = $1 AND m.kind = $2 AND m.recipient = $3 AND m.id = $4 AND m.status <> 'pending' RETURNING ${columns('m')}`,
    [key.projectId, key.kind, key.recipient, key.id, now],
  );
  return rows[0] ?? null;
}

/** Every message of a kind about `subject`, pending or settled (erasure). */
export async function forgetSubject(tx: Db, s: { projectId: string; kind: string; subject: string }): Promise<void> {
  await tx.query('DELETE FROM outbox_messages WHERE project_id = $1 AND subject = $2 AND kind = $3', [s.projectId, s.subject, s.kind]);
}

/** A kind's messages about `from` are about `to` from now on (an identity named by its pseudonym, docs/decisions/0046). */
export async function renameSubject(tx: Db, s: { projectId: string; kind: string; from: string; to: string }): Promise<void> {
  await tx.query('UPDATE outbox_messages SET subject = $4 WHERE project_id = $1 AND subject = $2 AND kind = $3', [s.projectId, s.from, s.kind, s.to]);
}

/** Every message to a recipient, pending or settled (the recipient is removed). */
export async function forgetRecipient(tx: Db, r: { projectId: string; kind: string; recipient: string }): Promise<void> {
  await tx.query('DELETE FROM outbox_messages WHERE project_id = $1 AND kind = $2 AND recipient = $3', [r.projectId, r.kind, r.recipient]);
}

/** The pending messages of a kind that meet `condition` (SQL on `m`): those to a recipient since removed. */
export async function forgetPendingWhere(db: Db, kind: string, condition: string): Promise<void> {
  await db.query(`DELETE FROM outbox_messages m WHERE m.kind = $1 AND m.status = 'pending' AND (${condition})`, [kind]);
}

/** A kind's messages delivered or given up before `before` go (its log's retention). */
export async function pruneSettled(db: Db, kind: string, before: Date): Promise<void> {
  await db.query(`DELETE FROM outbox_messages WHERE kind = $1 AND status <> 'pending' AND created_at < $2`, [kind, before]);
}

/**
 * Moves rows of a previous version's table into the outbox as messages of `kind`, in one statement:
 * `moved` is SQL that deletes them and returns project_id, recipient, id, subject, topic, payload,
 * created_at, status, attempts, next_attempt_at, last_status, last_ms, last_reason and delivered_at
 * (docs/decisions/0045). Answers the messages moved in.
 */
export async function adopt(db: Db, kind: string, moved: { sql: string; params: readonly unknown[] }): Promise<OutboxMessage[]> {
  const at = moved.params.length + 1;
  const { rows } = await db.query<OutboxMessage>(
    `WITH moved AS (${moved.sql})
     INSERT INTO outbox_messages AS m (project_id, kind, ${MOVED})
     SELECT project_id, $${at}, ${MOVED} FROM moved
     -- A message is in one table at a time; were one in both, the outbox's copy stands (rather
     -- than the move failing at every round).
     ON CONFLICT (project_id, kind, recipient, id) DO NOTHING
     RETURNING ${columns('m')}`,
    [...moved.params, kind],
  );
  return rows;
}
