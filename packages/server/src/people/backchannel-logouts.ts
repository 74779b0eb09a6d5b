import { randomToken } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import type { EndedSession } from '../oidc/payloads.repository.ts';
import type { OutboxKind } from '../outbox/outbox.ts';
import { enqueue, type OutboxMessage } from '../outbox/outbox.repository.ts';
import { findProjectUser } from './end-users.repository.ts';

/**
 * Back-Channel Logout 1.0 at a project's issuer (issue 22, docs/decisions/0029): when a person's
 * session ends — they logged out (RP-initiated logout), or an administrator revoked the passkey that
 * started it, or they were signed out, blocked or erased — every application of that session with a
 * back-channel logout URI is sent a signed logout token. The ending queues one notice per
 * application in its own transaction, a message of the outbox (docs/decisions/0045); any instance
 * delivers it, retrying a bounded number of times; each attempt is an audit event of the project.
 */

/** outbox_messages.kind of a notice: its recipient is the application's client id, its subject the account (sub). */
export const BACKCHANNEL_LOGOUT_KIND = 'backchannel_logout';

/** Why a session ended, as its logout notices say (the audit events' `cause`). */
export type LogoutCause = 'logout' | 'device_revoked' | 'user_signed_out' | 'user_blocked' | 'user_deleted';

/**
 * A delivery's schedule: the first attempt at once, then after 5 s, 30 s, 2 min, 10 min and 1 h
 * (an application restarting or deploying is reached again within the first minute); six in all,
 * then the notice is given up (its session ended at the issuer either way).
 */
export const BACKCHANNEL_RETRY_DELAYS_MS = [5_000, 30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] as const;
export const BACKCHANNEL_MAX_ATTEMPTS = BACKCHANNEL_RETRY_DELAYS_MS.length + 1;
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
  const notices = sessions.flatMap((session) =>
    Object.entries(session.sids).map(([clientId, sid]) => ({
      recipient: clientId,
      id: randomToken(16),
      subject: session.accountId,
      topic: cause,
      payload: JSON.stringify({ sid }),
    })),
  );
  const queued = await enqueue(
    tx,
    { projectId, kind: BACKCHANNEL_LOGOUT_KIND, now, messages: notices },
    {
      onlyIf: `EXISTS (SELECT 1 FROM application_keys k
                        WHERE k.project_id = x.project_id AND k.client_id = x.recipient AND k.backchannel_logout_uri IS NOT NULL)`,
      pendingPerSubject: BACKCHANNEL_PENDING_PER_SUBJECT,
    },
  );
  return queued.length;
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

export interface BackchannelLogoutKindDeps {
  sign: LogoutTokenSigner;
  eventsOf(projectId: string): IssuerEvents;
}

/** A notice's session at its application, as its payload keeps it. */
const sidOf = (notice: OutboxMessage): string | null => (JSON.parse(notice.payload) as { sid: string | null }).sid;

/**
 * Back-channel logout notices as messages of the outbox (outbox/outbox.ts): a form POST of a logout
 * token signed at each attempt; 200 or 204 delivers it, a 5xx, 408 or 429 is asked again on
 * BACKCHANNEL_RETRY_DELAYS_MS, any other answer gives it up; each attempt is an audit event of the
 * project; a notice goes once delivered or given up (no log: the audit events are its record).
 */
export function backchannelLogoutKind(deps: BackchannelLogoutKindDeps): OutboxKind {
  return {
    name: BACKCHANNEL_LOGOUT_KIND,
    retryDelaysMs: BACKCHANNEL_RETRY_DELAYS_MS,
    perProject: BATCH_PER_PROJECT,
    failedReason: 'sign_failed',
    async request(notice) {
      const signed = await deps.sign(notice.projectId, notice.recipient, { sub: notice.subject ?? '', sid: sidOf(notice) });
      if (!signed) return { giveUp: 'the application is disabled, removed or has no back-channel logout URI now' };
      return {
        url: signed.uri,
        body: new URLSearchParams({ logout_token: signed.token }).toString(),
        contentType: 'application/x-www-form-urlencoded',
      };
    },
    // Back-Channel Logout 1.0 §2.8: 200 OK (204 from frameworks that substitute it) is success. A
    // 4xx says the application refused this token: asking again would not change that (but for
    // "too many requests" and "timeout").
    verdict(status) {
      if (status === 200 || status === 204) return 'delivered';
      return status >= 500 || status === 408 || status === 429 || status < 200 ? 'retry' : 'give_up';
    },
    async settled(tx, notice, outcome) {
      const user = await findProjectUser(tx, notice.projectId, notice.subject ?? '');
      await deps.eventsOf(notice.projectId).record(
        tx,
        { ip: null, userAgent: null, clientId: notice.recipient },
        {
          scope: 'oidc',
          status: outcome.delivered ? 'success' : 'failed',
          action: 'backchannel_logout',
          userId: user?.identity ?? null,
          details: {
            cause: notice.topic,
            attempt: notice.attempts,
            ...(outcome.delivered
              ? { status: outcome.status, ms: outcome.ms }
              : {
                  reason: outcome.reason,
                  ...(outcome.status ? { status: outcome.status } : {}),
                  ...(outcome.retryAt ? { retryAt: outcome.retryAt.toISOString() } : { givenUp: true }),
                }),
          },
        },
      );
    },
    // The previous version's notices (migration 0026), queued by its instances during a rollover,
    // or waiting for an attempt when 0033 ran: moved in once due (no instance holds them then).
    previous: (now) => ({
      sql: `DELETE FROM backchannel_logouts WHERE (project_id, id) IN (
              SELECT project_id, id FROM backchannel_logouts WHERE next_attempt_at <= $1 ORDER BY next_attempt_at LIMIT 1000 FOR UPDATE SKIP LOCKED)
            RETURNING project_id, client_id AS recipient, id, sub AS subject, cause AS topic, json_build_object('sid', sid)::text AS payload,
                      created_at, 'pending' AS status, attempts, next_attempt_at, NULL::integer AS last_status, NULL::integer AS last_ms,
                      NULL::text AS last_reason, NULL::timestamptz AS delivered_at`,
      params: [now],
    }),
  };
}
