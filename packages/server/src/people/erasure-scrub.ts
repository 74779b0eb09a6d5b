import type { Db } from '../db/db.ts';

/**
 * The tables an erasure deletes or rewrites a person's rows in, whose old row versions and index
 * entries hold their address (or what names them) until the space is reused: measured by
 * test/erasure-data-files.test.ts, which greps the data files for the address after a scrub.
 */
export const SCRUBBED_TABLES = ['project_users', 'login_codes', 'identity_verifications', 'outbox_messages', 'webhook_messages'] as const;

/** Inside the erasure's transaction (docs/decisions/0046): the next housekeeping round scrubs. */
export async function requestScrub(tx: Db, projectId: string, now: Date): Promise<void> {
  await tx.query('INSERT INTO erasure_scrubs (project_id, erased_at) VALUES ($1, $2)', [projectId, now]);
}

/**
 * Erasure reaches the data files (docs/decisions/0046): when erasures asked for it, each table of
 * SCRUBBED_TABLES is rewritten (VACUUM FULL: a new file without the dead row versions, its indexes
 * rebuilt; the old files are removed at the next checkpoint). That holds an ACCESS EXCLUSIVE lock on
 * each table while it is rewritten (sign-ins wait: measured in the decision), so it runs from the
 * housekeeping — at most once a round (10 minutes), for every erasure since the last — not after
 * each erasure. The requests are claimed in a transaction of their own, so one instance scrubs;
 * a scrub that fails puts them back for the next round. Answers whether it ran.
 */
export async function scrubErasures(db: Db): Promise<boolean> {
  const claimed = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ project_id: string; erased_at: Date }>('DELETE FROM erasure_scrubs RETURNING project_id, erased_at');
    return rows;
  });
  if (claimed.length === 0) return false;
  try {
    for (const table of SCRUBBED_TABLES) await db.exec(`VACUUM FULL ${table}`);
  } catch (error) {
    for (const r of claimed) await requestScrub(db, r.project_id, r.erased_at);
    throw error;
  }
  return true;
}
