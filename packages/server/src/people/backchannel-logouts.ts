import type { Clock } from '../clock.ts';
import { polledRounds } from '../db/polled-rounds.ts';
import { randomToken } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { OutgoingFailure, OutgoingRefusal, type OutgoingClient } from '../http/outgoing.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { EndedSession } from '../oidc/payloads.repository.ts';
import { findProjectUser } from './end-users.repository.ts';

/**
 * Back-Channel Logout 1.0 at a project's issuer (issue 22, docs/decisions/0029): when a person's
 * session ends — they logged out (RP-initiated logout), or an administrator revoked the passkey that
 * started it — every application of that session with a back-channel logout URI is sent a signed
 * logout token. The ending queues one row per application in its own transaction
 * (backchannel_logouts, migration 0026); any instance delivers it, retrying a bounded number of
 * times; each attempt is an audit event of the project.
 */

/** Why a session ended, as its logout notices say (the audit events' `cause`). */
export type LogoutCause = 'logout' | 'device_revoked' | 'user_signed_out' | 'user_blocked' | 'user_deleted';

/**
 * A delivery's schedule: the first attempt at once, then after 5 s, 30 s, 2 min, 10 min and 1 h
 * (an application restarting or deploying is reached again within the first minute); six in all,
 * then the notice is given up (its session ended at the issuer either way).
 */
export const BACKCHANNEL_RETRY_DELAYS_MS = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] as const;
export const BACKCHANNEL_MAX_ATTEMPTS = BACKCHANNEL_RETRY_DELAYS_MS.length + 1;
/** A claimed notice is another instance's again after this long (its holder stopped mid-delivery). */
export const BACKCHANNEL_LEASE_MS = 60_000;
/** How often each instance looks for due notices (a new one is also sent at once by its own instance). */
export const BACKCHANNEL_POLL_MS = 5_000;
const BATCH = 20;
/** At most this many notices of one project in a batch: one project's slow application does not hold up every other's. */
const BATCH_PER_PROJECT = 5;
/** Pending notices per application and account: more are not queued (the newest ending says no more than those already waiting). */
export const BACKCHANNEL_PENDING_PER_SUBJECT = 10;

/**
 * Queues the notices of ended sessions, inside the transaction that ended them: one per application
 * of each session that has a back-channel logout URI now (the others are not written). Answers how
 * many were queued.
 */
export async function queueBackchannelLogouts(
  tx: Db,
  projectId: string,
  sessions: readonly EndedSession[],
  cause: LogoutCause,
  now: Date,
): Promise<number> {
  const clientIds: string[] = [];
  const subs: string[] = [];
  const sids: Array<string | null> = [];
  for (const session of sessions) {
    for (const [clientId, sid] of Object.entries(session.sids)) {
      clientIds.push(clientId);
      subs.push(session.accountId);
      sids.push(sid);
    }
  }
  if (clientIds.length === 0) return 0;
  const ids = clientIds.map(() => randomToken(16));
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO backchannel_logouts (project_id, id, client_id, sub, sid, cause, next_attempt_at, created_at)
     SELECT $1, x.id, x.client_id, x.sub, x.sid, $2, $3, $3
       FROM unnest($4::text[], $5::text[], $6::text[], $7::text[]) AS x(id, client_id, sub, sid)
       JOIN application_keys k ON k.project_id = $1 AND k.client_id = x.client_id AND k.backchannel_logout_uri IS NOT NULL
      WHERE (SELECT count(*) FROM backchannel_logouts p
              WHERE p.project_id = $1 AND p.client_id = x.client_id AND p.sub = x.sub) < $8
     RETURNING id`,
    [projectId, cause, now, ids, clientIds, subs, sids, BACKCHANNEL_PENDING_PER_SUBJECT],
  );
  return rows.length;
}

interface Notice {
  project_id: string;
  id: string;
  client_id: string;
  sub: string;
  sid: string | null;
  cause: LogoutCause;
  attempts: number;
}

/**
 * The logout token for one notice and where it goes, as the project's issuer signs it now (a new
 * `jti` each time); null: the application cannot be told any more.
 */
export type LogoutTokenSigner = (
  projectId: string,
  clientId: string,
  claims: { sub: string; sid: string | null },
) => Promise<{ uri: string; token: string } | null>;

export interface BackchannelDeliveryDeps {
  db: Db;
  clock: Clock;
  outgoing: OutgoingClient;
  sign: LogoutTokenSigner;
  eventsOf(projectId: string): IssuerEvents;
  /** Where a failed round is reported (it is tried again at the next one). */
  warn(error: unknown): void;
}

/** What one attempt came to. */
type Outcome = { delivered: true; status: number; ms: number } | { delivered: false; reason: string; status?: number; final: boolean };

/**
 * The deliverer of every instance: `nudge` after queueing sends at once; otherwise every
 * BACKCHANNEL_POLL_MS it claims the due notices (FOR UPDATE SKIP LOCKED, under a lease, so two
 * instances never send one notice at the same time and a notice whose instance died is sent again).
 */
export function createBackchannelDelivery(deps: BackchannelDeliveryDeps) {
  const { db, clock, outgoing, sign } = deps;

  /**
   * Takes the due notices for a lease, the oldest first and at most BATCH_PER_PROJECT of one
   * project; the attempt count it raises fences what this instance writes after (settle).
   */
  async function claim(): Promise<Notice[]> {
    const now = clock.now();
    const { rows } = await db.query<Notice>(
      `UPDATE backchannel_logouts b SET attempts = b.attempts + 1, next_attempt_at = $2
         FROM (SELECT project_id, id FROM backchannel_logouts
                WHERE (project_id, id) IN (
                  SELECT project_id, id FROM (
                    SELECT project_id, id, next_attempt_at,
                           row_number() OVER (PARTITION BY project_id ORDER BY next_attempt_at) AS nth
                      FROM backchannel_logouts WHERE next_attempt_at <= $1) ranked
                   WHERE nth <= $4 ORDER BY next_attempt_at LIMIT $3)
                FOR UPDATE SKIP LOCKED) due
        WHERE b.project_id = due.project_id AND b.id = due.id
        RETURNING b.project_id, b.id, b.client_id, b.sub, b.sid, b.cause, b.attempts`,
      [now, new Date(now.getTime() + BACKCHANNEL_LEASE_MS), BATCH, BATCH_PER_PROJECT],
    );
    return rows;
  }

  async function attempt(notice: Notice): Promise<Outcome> {
    // Its last attempt was made and what came of it was never written (its instance stopped).
    if (notice.attempts > BACKCHANNEL_MAX_ATTEMPTS) return { delivered: false, reason: 'attempts_exhausted', final: true };
    const final = notice.attempts >= BACKCHANNEL_MAX_ATTEMPTS;
    const signed = await sign(notice.project_id, notice.client_id, { sub: notice.sub, sid: notice.sid });
    if (!signed) return { delivered: false, reason: 'the application is disabled, removed or has no back-channel logout URI now', final: true };
    try {
      const answer = await outgoing.post(
        signed.uri,
        new URLSearchParams({ logout_token: signed.token }).toString(),
        'application/x-www-form-urlencoded',
      );
      // Back-Channel Logout 1.0 §2.8: 200 OK (204 from frameworks that substitute it) is success.
      if (answer.status === 200 || answer.status === 204) return { delivered: true, ...answer };
      // A 4xx says the application refused this token: asking again would not change that
      // (but for "too many requests" and "timeout").
      const retry = answer.status >= 500 || answer.status === 408 || answer.status === 429 || answer.status < 200;
      return { delivered: false, status: answer.status, reason: 'unexpected_status', final: final || !retry };
    } catch (error) {
      // The audit event says why in a word; the address and the system's text are not the project's to read.
      if (error instanceof OutgoingRefusal) return { delivered: false, reason: error.reason, final: true };
      if (error instanceof OutgoingFailure) return { delivered: false, reason: error.reason, final };
      throw error;
    }
  }

  /**
   * Writes what the attempt came to: the notice goes (delivered or given up) or waits for its next
   * attempt, and its event — only while the notice is still this attempt's (its attempt count
   * unchanged: after a lease ran out another instance may have taken it, and its word stands).
   */
  async function settle(notice: Notice, outcome: Outcome): Promise<void> {
    const user = await findProjectUser(db, notice.project_id, notice.sub);
    const done = outcome.delivered || outcome.final;
    const delay = BACKCHANNEL_RETRY_DELAYS_MS[Math.min(notice.attempts, BACKCHANNEL_RETRY_DELAYS_MS.length) - 1] ?? BACKCHANNEL_LEASE_MS;
    const retryAt = done ? null : new Date(clock.now().getTime() + delay);
    await db.transaction(async (tx) => {
      const fenced = retryAt
        ? await tx.query('UPDATE backchannel_logouts SET next_attempt_at = $4 WHERE project_id = $1 AND id = $2 AND attempts = $3 RETURNING 1', [
            notice.project_id,
            notice.id,
            notice.attempts,
            retryAt,
          ])
        : await tx.query('DELETE FROM backchannel_logouts WHERE project_id = $1 AND id = $2 AND attempts = $3 RETURNING 1', [
            notice.project_id,
            notice.id,
            notice.attempts,
          ]);
      if (fenced.rows.length === 0) return;
      await deps.eventsOf(notice.project_id).record(
        tx,
        { ip: null, userAgent: null, clientId: notice.client_id },
        {
          scope: 'oidc',
          status: outcome.delivered ? 'success' : 'failed',
          action: 'backchannel_logout',
          userId: user?.identity ?? null,
          details: {
            cause: notice.cause,
            attempt: notice.attempts,
            ...(outcome.delivered
              ? { status: outcome.status, ms: outcome.ms }
              : {
                  reason: outcome.reason,
                  ...(outcome.status ? { status: outcome.status } : {}),
                  ...(retryAt ? { retryAt: retryAt.toISOString() } : { givenUp: true }),
                }),
          },
        },
      );
    });
  }

  // A failure to sign counts as an attempt: the last one gives the notice up (never a retry at once).
  const failure = (notice: Notice, error: unknown): Outcome => {
    deps.warn(error);
    return { delivered: false, reason: 'sign_failed', final: notice.attempts >= BACKCHANNEL_MAX_ATTEMPTS };
  };

  /** One round: every due notice, a batch at a time; answers how many attempts were made. */
  async function round(stopping: () => boolean): Promise<number> {
    let attempts = 0;
    while (!stopping()) {
      const notices = await claim();
      if (notices.length === 0) return attempts;
      attempts += notices.length;
      await Promise.all(notices.map(async (notice) => settle(notice, await attempt(notice).catch((error: unknown) => failure(notice, error)))));
    }
    return attempts;
  }

  const rounds = polledRounds({ round, pollMs: BACKCHANNEL_POLL_MS, warn: deps.warn });
  return { deliverDue: rounds.runNow, nudge: rounds.nudge, start: rounds.start, stop: rounds.stop };
}

export type BackchannelDelivery = ReturnType<typeof createBackchannelDelivery>;
