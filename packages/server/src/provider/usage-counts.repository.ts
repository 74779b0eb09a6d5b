import type { UsageKey } from '@latchkey/domain';
import type { Db } from '../db/db.ts';

export interface UsageHit {
  projectId: string;
  key: UsageKey;
  at: Date;
  /** ISO 3166-1 alpha-2, ZZ unknown. */
  country: string;
}

/**
 * Counts one hit in the usage rollups (migration 0010): the hour, the day and the day × country of
 * `at` (UTC). Called inside the transaction of the event it counts, so a count never exists without
 * its event nor an event without its count.
 */
export async function countUsage(tx: Db, hit: UsageHit): Promise<void> {
  const hour = new Date(Math.floor(hit.at.getTime() / 3_600_000) * 3_600_000);
  const day = hit.at.toISOString().slice(0, 10);
  // One round trip: the three upserts as data-modifying CTEs of one statement.
  await tx.query(
    `WITH hourly AS (
       INSERT INTO usage_hourly AS u (project_id, hour, key, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (project_id, hour, key) DO UPDATE SET count = u.count + 1
     ), daily AS (
       INSERT INTO usage_daily AS u (project_id, day, key, count) VALUES ($1, $4, $3, 1)
       ON CONFLICT (project_id, day, key) DO UPDATE SET count = u.count + 1
     )
     INSERT INTO usage_daily_country AS u (project_id, day, country, key, count) VALUES ($1, $4, $5, $3, 1)
     ON CONFLICT (project_id, day, country, key) DO UPDATE SET count = u.count + 1`,
    [hit.projectId, hour, hit.key, day, hit.country],
  );
}

// Reading the rollups (issue 10, docs/decisions/0020). Every read is bounded by a range of buckets
// and the keys asked; `projectId` null reads every project (the global dashboard), through the
// bucket-first indexes of migration 0016.

/** Which rollups a read sums: one project's or every project's, and which keys. */
