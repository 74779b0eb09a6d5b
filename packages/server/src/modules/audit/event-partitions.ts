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
 * Keeps the monthly partitions of audit_events (migration 0010, docs/decisions/0014): creates those
 * missing from the month of `now` to MONTHS_AHEAD months later, and drops whole months older than
 * `retentionMonths` before the current one. Called at start-up and by the housekeeping timer; one
 * transaction under an advisory lock, so instances starting together do each once. Creating a
 * partition locks the parent briefly, which is why it happens here, ahead, and never inside an
 * event's transaction. Answers the partitions created and dropped.
 */
export async function ensureEventPartitions(db: Db, now: Date, retentionMonths?: number): Promise<{ created: string[]; dropped: string[] }> {
  const created: string[] = [];
  const dropped: string[] = [];
  await db.transaction(async (tx) => {
    await tx.query(...advisoryLockQuery('eventPartitions'));
    if (retentionMonths !== undefined) {
      const oldestKept = partitionName(monthStart(now, -retentionMonths));
      const { rows: parts } = await tx.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
          WHERE i.inhparent = 'audit_events'::regclass ORDER BY 1`,
      );
      for (const { name } of parts) {
        // Names are audit_events_YYYYMM, made here: they sort as their months do.
        if (/^audit_events_\d{6}$/.test(name) && name < oldestKept) {
          await tx.exec(`DROP TABLE ${name}`);
          dropped.push(name);
        }
      }
    }
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
  return { created, dropped };
}
