import type { Db } from '../db/db.ts';

/**
 * The tables an erasure deletes or rewrites a person's rows in, whose old row versions and index
 * entries hold their address (or what names them) until the space is reused: measured by
 * test/erasure-data-files.test.ts, which greps the data files for the address after a scrub.
 */
const SCRUBBED_TABLES = ['project_users', 'login_codes', 'identity_verifications', 'outbox_messages', 'webhook_messages'] as const;

/** Inside the erasure's transaction (docs/decisions/0046): the next housekeeping round scrubs. */
export async function requestScrub(tx: Db, projectId: string, now: Date): Promise<void> {
  await tx.query('INSERT INTO erasure_scrubs (project_id, erased_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [projectId, now]);
}

/**
 * Erasure reaches the data files (docs/decisions/0046): when erasures asked for it, each table of
 * SCRUBBED_TABLES is rewritten (VACUUM FULL: a new file without the dead row versions, its indexes
 * rebuilt; the old files are removed at the next checkpoint). A plain VACUUM is not enough: it
 * frees the space but leaves the bytes (17 of 28 occurrences stayed, measured). The rewrite holds
 * an ACCESS EXCLUSIVE lock on each table while it runs — sign-ins wait: about 4 s at 100,000 users
 * and 39 s at 1,000,000 on the 2-core test machine — so it is not run after each erasure but by
 * the housekeeping (scrubber), for every erasure since the last. The requests are claimed in a
 * transaction of their own, so one instance scrubs them; a scrub that fails puts them back for
 * the next round. Answers whether it ran.
 */
export async function scrubErasures(db: Db): Promise<boolean> {
  // The claim's own transaction id: every erasure it claims committed under an older one.
  const { claimed, claimXid } = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ project_id: string; erased_at: Date }>('DELETE FROM erasure_scrubs RETURNING project_id, erased_at');
    const xid = await tx.query<{ xid: string }>('SELECT (pg_current_xact_id()::text::bigint % 4294967296)::text AS xid');
    return { claimed: rows, claimXid: xid.rows[0]?.xid ?? '0' };
  });
  if (claimed.length === 0) return false;
  // VACUUM FULL keeps the row versions some transaction may still see: one begun before the claim
  // (a delivery, a list read), or any whose snapshot is older — in any database of the server, as a
  // session starting up takes the server-wide oldest. Wait for those to end, or try next round.
  if (!(await olderTransactionsEnded(db, claimXid))) {
    for (const r of claimed) await requestScrub(db, r.project_id, r.erased_at);
    return false;
  }
  try {
    for (const table of SCRUBBED_TABLES) await db.exec(`VACUUM FULL ${table}`);
  } catch (error) {
    for (const r of claimed) await requestScrub(db, r.project_id, r.erased_at);
    throw error;
  }
  return true;
}

/** How long a scrub waits for the transactions begun before it to end. */
const OLDER_TRANSACTIONS_WAIT_MS = 30_000;

/**
 * Whether no session of the server (any database) still runs a transaction, or holds a snapshot,
 * older than `xid` (the claim's), waiting up to OLDER_TRANSACTIONS_WAIT_MS. Sessions whose
 * transaction ids the role may not see are not waited for.
 */
async function olderTransactionsEnded(db: Db, xid: string): Promise<boolean> {
  for (let waited = 0; ; waited += 200) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE pid <> pg_backend_pid()
          AND ((backend_xid IS NOT NULL AND age(backend_xid) > age($1::text::xid))
            OR (backend_xmin IS NOT NULL AND age(backend_xmin) > age($1::text::xid)))`,
      [xid],
    );
    if ((rows[0]?.n ?? 0) === 0) return true;
    if (waited >= OLDER_TRANSACTIONS_WAIT_MS) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** How long the housekeeping waits after a scrub before the next (docs/decisions/0046): a rewrite's lock at most this often. */
export const SCRUB_AT_MOST_EVERY_MS = 6 * 60 * 60 * 1000;

/**
 * The housekeeping's scrubber: at a round when erasures are waiting and this instance has not
 * scrubbed within SCRUB_AT_MOST_EVERY_MS (its first round: whenever erasures are waiting), it scrubs.
 */
export function erasureScrubber(db: Db, now: () => Date, everyMs = SCRUB_AT_MOST_EVERY_MS) {
  let last = -Infinity;
  return async (): Promise<void> => {
    const at = now().getTime();
    if (at - last < everyMs) return;
    if (await scrubErasures(db)) last = at;
  };
}
