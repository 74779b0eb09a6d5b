import { performance } from 'node:perf_hooks';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { OutgoingFailure, OutgoingRefusal, type OutgoingClient } from '../http/outgoing.ts';
import { adopt, claimDue, pruneSettled, settleMessage, type ClaimedMessage, type OutboxMessage } from './outbox.repository.ts';
import { polledRounds } from './polled-rounds.ts';

/**
 * The outbox (issue 35, docs/decisions/0045): messages a change queued in its own transaction and
 * any instance delivers, at least once, through the guarded outgoing client (http/outgoing.ts). One
 * deliverer for every kind: it claims due messages for a lease, makes each attempt outside any
 * transaction, settles only while the message is still that attempt's, retries on the kind's
 * schedule and gives up after its last attempt. A feature declares its kind (OutboxKind): how a
 * message becomes a request, its retry delays, whether its recipients' messages go in order, and
 * what settling one writes besides (its audit event, the recipient's health).
 */

/** A claimed message is another instance's again after this long (its holder stopped mid-delivery). */
export const OUTBOX_LEASE_MS = 60_000;
/** How often each instance looks for due messages of each kind (what it queued itself it is nudged to send at once). */
export const OUTBOX_POLL_MS = 1_000;
/**
 * How often an instance looks in the previous version's table once a look there found nothing:
 * its old instances are leaving or gone, and an idle server should not pay a statement a second.
 */
export const PREVIOUS_IDLE_MS = 60_000;
/** Messages claimed at a time, per kind. */
const BATCH = 20;

/** What one attempt sends. */
export interface OutboxRequest {
  url: string;
  body: string;
  contentType: string;
  headers?: Record<string, string>;
}

/** What a kind makes of an answer's status: delivered, worth asking again, or not (given up). */
export type Verdict = 'delivered' | 'retry' | 'give_up';

/** What one attempt came to. */
export type Outcome =
  { delivered: true; status: number; ms: number } | { delivered: false; reason: string; status?: number; ms?: number; final: boolean };

/** An attempt's outcome as its kind's settling sees it: when the next attempt is due, or null (delivered or given up). */
export type Settled = Outcome & { retryAt: Date | null };

export interface OutboxKind {
  /** outbox_messages.kind. */
  readonly name: string;
  /** The delays after each failed attempt: one attempt more than delays, then the message is given up. */
  readonly retryDelaysMs: readonly number[];
  /** Each recipient's messages go one at a time, oldest first: a message waits for every older one to be settled. */
  readonly ordered?: boolean;
  /** At most this many messages of one project in a batch: one project's slow recipient does not hold up every other's. */
  readonly perProject?: number;
  /** SQL, a condition on `m` (an outbox_messages row): a message not meeting it waits (a disabled endpoint's). */
  readonly claimable?: string;
  /** Days its delivered and given-up messages are kept (a delivery log); without: they go once settled. */
  readonly logDays?: number;
  /** The word recorded for an attempt that threw while it was made (the error goes to the server's log). */
  readonly failedReason: string;
  /**
   * SQL, a query on `due` (the message being claimed: project_id, recipient, id) whose row is read
   * with the claim, in the same statement, as the message's `context` (JSON): what its request is
   * built from besides the message (a webhook's endpoint: its URL and sealed secret).
   */
  readonly context?: string;
  /** What one attempt sends, or why nothing can be sent any more (given up at once). */
  request(message: ClaimedMessage): Promise<OutboxRequest | { giveUp: string }>;
  verdict(status: number): Verdict;
  /** Inside the settling transaction, once the message is known to be this attempt's: its audit event, its recipient's health. */
  settled(tx: Db, message: OutboxMessage, outcome: Settled): Promise<void>;
  /**
   * The previous version's own table of this kind, during a rollover (docs/decisions/0045): SQL
   * deleting its due rows and returning them as messages (outbox.repository.ts `adopt`), moved in
   * before a round's first batch, at most once a second (and at every deliverDue).
   */
  previous?(now: Date): { sql: string; params: readonly unknown[] };
  /** Now and then (app.ts housekeeping): what the kind tidies besides its log's retention. */
  housekeeping?(db: Db, now: Date): Promise<void>;
}

export interface OutboxDeps {
  db: Db;
  clock: Clock;
  outgoing: OutgoingClient;
  kinds: readonly OutboxKind[];
  /** Where a failed round or attempt is reported (what was due is tried again). */
  warn(error: unknown): void;
}

/**
 * One kind's lane: its rounds claim that kind's due messages with a lease, attempt each through the
 * guarded client, and settle each only while it is still held; what the previous version queued of
 * the kind moves in first.
 */
function outboxLane(kind: OutboxKind, deps: OutboxDeps) {
  const { db, clock, outgoing, warn } = deps;
  const maxAttempts = kind.retryDelaysMs.length + 1;

  async function attempt(m: ClaimedMessage): Promise<Outcome> {
    // Its last attempt was made and what came of it was never written (its instance stopped).
    if (m.attempts > maxAttempts) return { delivered: false, reason: 'attempts_exhausted', final: true };
    const final = m.attempts >= maxAttempts;
    const request = await kind.request(m);
    if ('giveUp' in request) return { delivered: false, reason: request.giveUp, final: true };
    try {
      const answer = await outgoing.post(request.url, request.body, request.contentType, request.headers);
      const verdict = kind.verdict(answer.status);
      if (verdict === 'delivered') return { delivered: true, status: answer.status, ms: answer.ms };
      return { delivered: false, status: answer.status, ms: answer.ms, reason: 'unexpected_status', final: final || verdict === 'give_up' };
    } catch (error) {
      // Recorded in a word: the address and the system's text are not the project's to read.
      if (error instanceof OutgoingRefusal) return { delivered: false, reason: error.reason, final: true };
      if (error instanceof OutgoingFailure) return { delivered: false, reason: error.reason, final };
      throw error;
    }
  }

  // An attempt that threw counts as one: the last gives the message up (never a retry at once).
  const failure = (m: OutboxMessage, error: unknown): Outcome => {
    warn(error);
    return { delivered: false, reason: kind.failedReason, final: m.attempts >= maxAttempts };
  };

  /**
   * Writes what the attempt came to — delivered, given up, or due again after its delay — and what
   * its kind writes with it, only while the message is still this attempt's (its attempt count
   * unchanged: after a lease ran out another instance may have taken it, and its word stands).
   */
  async function settle(m: OutboxMessage, outcome: Outcome): Promise<void> {
    const now = clock.now();
    const done = outcome.delivered || outcome.final;
    const delay = kind.retryDelaysMs[Math.min(m.attempts, kind.retryDelaysMs.length) - 1] ?? OUTBOX_LEASE_MS;
    const retryAt = done ? null : new Date(now.getTime() + delay);
    await db.transaction(async (tx) => {
      const mine = await settleMessage(tx, m, {
        status: outcome.delivered ? 'delivered' : done ? 'failed' : 'pending',
        nextAttemptAt: retryAt,
        lastStatus: outcome.status ?? null,
        lastMs: outcome.ms ?? null,
        lastReason: outcome.delivered ? null : outcome.reason,
        deliveredAt: outcome.delivered ? now : null,
        remove: done && kind.logDays === undefined,
      });
      if (mine) await kind.settled(tx, m, { ...outcome, retryAt });
    });
  }

  // A round per nudge need not look at the previous version's table too: once a second while the
  // previous version queues there, once a minute after a look that found nothing.
  let previousAt = Number.NEGATIVE_INFINITY;
  let previousEvery = OUTBOX_POLL_MS;
  let previousNow = false;
  async function movePrevious(): Promise<void> {
    if (!kind.previous) return;
    const at = performance.now();
    if (!previousNow && at - previousAt < previousEvery) return;
    previousNow = false;
    previousAt = at;
    const moved = await adopt(db, kind.name, kind.previous(clock.now())).catch((error: unknown) => {
      warn(error);
      return null;
    });
    previousEvery = moved !== null && moved.length === 0 ? PREVIOUS_IDLE_MS : OUTBOX_POLL_MS;
  }

  /** One round: what the previous version queued moves in, then every due message, a batch at a time; answers how many attempts were made. */
  async function round(stopping: () => boolean): Promise<number> {
    await movePrevious();
    let attempts = 0;
    while (!stopping()) {
      const now = clock.now();
      const claimed = await claimDue(db, {
        kind: kind.name,
        now,
        leaseUntil: new Date(now.getTime() + OUTBOX_LEASE_MS),
        batch: BATCH,
        ordered: kind.ordered ?? false,
        ...(kind.perProject !== undefined ? { perProject: kind.perProject } : {}),
        ...(kind.claimable !== undefined ? { claimable: kind.claimable } : {}),
        ...(kind.context !== undefined ? { context: kind.context } : {}),
      });
      if (claimed.length === 0) return attempts;
      attempts += claimed.length;
      await Promise.all(claimed.map(async (m) => settle(m, await attempt(m).catch((error: unknown) => failure(m, error)))));
    }
    return attempts;
  }

  const rounds = polledRounds({ round, pollMs: OUTBOX_POLL_MS, warn });
  return {
    ...rounds,
    /** A round now that also moves in what the previous version queued. */
    runNowWithPrevious(): Promise<number> {
      previousNow = true;
      return rounds.runNow();
    },
  };
}

/**
 * The deliverer of every instance: one lane of rounds per kind (outbox/polled-rounds.ts), so one
 * kind's slow recipients never hold up another's messages; each polls every OUTBOX_POLL_MS, and
 * `nudge` (after queueing) sends at once.
 */
export function createOutbox(deps: OutboxDeps) {
  const { db, clock } = deps;
  const lanes = new Map(deps.kinds.map((kind) => [kind.name, outboxLane(kind, deps)]));
  const lane = (kind: string) => {
    const found = lanes.get(kind);
    if (!found) throw new Error(`the outbox has no kind ${kind}`);
    return found;
  };

  return {
    /** A round of every kind now (what the previous version queued included); answers how many attempts were made. */
    async deliverDue(): Promise<number> {
      const made = await Promise.all([...lanes.values()].map((l) => l.runNowWithPrevious()));
      return made.reduce((sum, n) => sum + n, 0);
    },
    /** Messages of `kind` were queued and committed: a round now rather than at the next poll. */
    nudge: (kind: string): void => lane(kind).nudge(),
    /** Messages of `kind` were queued in a transaction that may not have committed yet: a round shortly after. */
    nudgeSoon: (kind: string): void => lane(kind).nudgeSoon(),
    start(): void {
      for (const l of lanes.values()) l.start();
    },
    /** Stops polling and waits for the rounds under way (no further batch is taken: what is due waits for an instance). */
    async stop(): Promise<void> {
      await Promise.all([...lanes.values()].map((l) => l.stop()));
    },
    /** The logs' retention, and what each kind tidies besides. */
    async housekeeping(): Promise<void> {
      const now = clock.now();
      for (const kind of deps.kinds) {
        if (kind.logDays !== undefined) await pruneSettled(db, kind.name, new Date(now.getTime() - kind.logDays * 86_400_000));
        await kind.housekeeping?.(db, now);
      }
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
