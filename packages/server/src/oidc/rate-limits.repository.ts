import type { Db } from '../db/db.ts';

/** One counter: at most `max` hits per `windowMs`, keyed by `bucket` (already a keyed hash). */
export interface RateLimit<Name extends string = string> {
  /** What the limit is about, answered when it refuses. */
  name: Name;
  bucket: string;
  max: number;
  windowMs: number;
}

/**
 * Counts one hit in each limit, all or none: answers the first limit that is used up (and counts
 * nothing), or null when every hit was counted. Fixed windows in the database, so every instance shares them; one upsert per limit
 * inside one transaction, so concurrent requests cannot slip past.
 */
export async function hitAll<Name extends string>(db: Db, limits: readonly RateLimit<Name>[], now: Date): Promise<RateLimit<Name> | null> {
  class Refused extends Error {
    constructor(readonly limit: RateLimit<Name>) {
      super(limit.name);
    }
  }
  try {
    await db.transaction(async (tx) => {
      for (const limit of limits) {
        const { rows } = await tx.query(
          `INSERT INTO rate_limits AS r (bucket, window_started_at, window_ends_at, hits) VALUES ($1, $2, $3, 1)
           ON CONFLICT (bucket) DO UPDATE SET
             window_started_at = CASE WHEN r.window_ends_at <= $2 THEN EXCLUDED.window_started_at ELSE r.window_started_at END,
             window_ends_at = CASE WHEN r.window_ends_at <= $2 THEN EXCLUDED.window_ends_at ELSE r.window_ends_at END,
             hits = CASE WHEN r.window_ends_at <= $2 THEN 1 ELSE r.hits + 1 END
           WHERE r.window_ends_at <= $2 OR r.hits < $4
           RETURNING hits`,
          [limit.bucket, now, new Date(now.getTime() + limit.windowMs), limit.max],
        );
        if (rows.length === 0) throw new Refused(limit);
      }
    });
    return null;
  } catch (error) {
    if (error instanceof Refused) return error.limit;
    throw error;
  }
}

export async function deleteEndedRateLimits(db: Db, now: Date): Promise<void> {
  await db.query('DELETE FROM rate_limits WHERE window_ends_at <= $1', [now]);
}
