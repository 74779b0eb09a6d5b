import { advisoryLockQuery } from '../../db/advisory-locks.ts';
import type { Db } from '../../db/db.ts';

/** Months the server keeps ready beyond the current one, so no event waits for a partition. */
export const MONTHS_AHEAD = 3;

/** The first instant (UTC) of the month `offset` months after the month of `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** `audit_events_202611` for November 2026 (UTC). */
export function partitionName(month: Date): string {
  return `audit_events_${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Creates the monthly partitions of audit_events (migration 0010, docs/decisions/0014) from the
 * month of `now` to MONTHS_AHEAD months later, those missing only. Called at start-up and by the
 * housekeeping timer; one transaction under an advisory lock, so instances starting together create
 * each month once. Creating a partition locks the parent briefly, which is why it happens here,
 * ahead, and never inside an event's transaction. Answers the partitions created.
 */
export async function ensureEventPartitions(db: Db, now: Date): Promise<string[]> {
  const created: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query(...advisoryLockQuery('eventPartitions'));
    for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
      const from = monthStart(now, offset);
      const name = partitionName(from);
      const { rows } = await tx.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [name]);
      if (rows[0]?.found) continue;
      // The name and bounds are made here from a date, never from input.
      await tx.exec(
        `CREATE TABLE ${name} PARTITION OF audit_events FOR VALUES FROM ('${from.toISOString()}') TO ('${monthStart(now, offset + 1).toISOString()}')`,
      );
      created.push(name);
    }
  });
  return created;
}
