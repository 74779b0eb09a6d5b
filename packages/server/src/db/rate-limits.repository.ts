import { prepared, type Db } from './db.ts';

/** One counter: at most `max` hits per `windowMs`, keyed by `bucket` (already a keyed hash). */
export interface RateLimit<Name extends string = string> {
  /** What the limit is about, answered when it refuses. */
  name: Name;
  bucket: string;
  max: number;
  windowMs: number;
}

/** Told the name of each limit that refuses a hit (the metrics count them: http/metrics.ts). */
export const rateLimitObservers = new Set<(limit: string) => void>();

/**
 * Counts one hit in each limit of `issuer` (a project's id, or 'console': the windows are kept under
 * it, docs/decisions/0037), all or none: answers the first limit that is used up (and counts
 * nothing), or null when every hit was counted. Fixed windows in the database, so every instance
 * shares them; one statement: the used-up check, then one upsert per limit, each refusing a row
 * already at its maximum under the row's lock, so concurrent requests cannot slip past. (Only when
 * another request fills a bucket between the check and the upsert can a refused request still
 * have counted in the others: an over-count, never an under-count.)
 */
export async function hitAll<Name extends string>(
  db: Db,
  issuer: string,
  limits: readonly RateLimit<Name>[],
  now: Date,
): Promise<RateLimit<Name> | null> {
  // A bucket named twice would be one row upserted twice in a statement: counted once, at the lowest maximum.
  const byBucket = new Map<string, RateLimit<Name>>();
  for (const limit of limits) {
    const seen = byBucket.get(limit.bucket);
    if (!seen || limit.max < seen.max) byBucket.set(limit.bucket, limit);
  }
  const wanted = [...byBucket.values()];
  if (wanted.length === 0) return null;
  const { rows } = await db.query<{ bucket: string; full: boolean }>(
    prepared(`WITH wanted AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::int[]) AS w(bucket, ends_at, max)
     ), used_up AS (
       SELECT w.bucket FROM wanted w JOIN rate_limit_windows r ON r.issuer = $5 AND r.bucket = w.bucket
        WHERE r.window_ends_at > $4 AND r.hits >= w.max
     ), counted AS (
       INSERT INTO rate_limit_windows AS r (issuer, bucket, window_started_at, window_ends_at, hits)
       SELECT $5, bucket, $4, ends_at, 1 FROM wanted WHERE NOT EXISTS (SELECT 1 FROM used_up)
       ON CONFLICT (issuer, bucket) DO UPDATE SET
         window_started_at = CASE WHEN r.window_ends_at <= $4 THEN EXCLUDED.window_started_at ELSE r.window_started_at END,
         window_ends_at = CASE WHEN r.window_ends_at <= $4 THEN EXCLUDED.window_ends_at ELSE r.window_ends_at END,
         hits = CASE WHEN r.window_ends_at <= $4 THEN 1 ELSE r.hits + 1 END
       WHERE r.window_ends_at <= $4 OR r.hits < (SELECT max FROM wanted WHERE wanted.bucket = r.bucket)
       RETURNING r.bucket
     )
     SELECT bucket, true AS full FROM used_up
     UNION ALL SELECT bucket, false AS full FROM counted`),
    [wanted.map((l) => l.bucket), wanted.map((l) => new Date(now.getTime() + l.windowMs)), wanted.map((l) => l.max), now, issuer],
  );
  const full = new Set(rows.filter((r) => r.full).map((r) => r.bucket));
  const counted = new Set(rows.filter((r) => !r.full).map((r) => r.bucket));
  const refused = limits.find((l) => full.has(l.bucket)) ?? limits.find((l) => !counted.has(l.bucket)) ?? null;
  if (refused) for (const observe of rateLimitObservers) observe(refused.name);
  return refused;
}

export async function deleteEndedRateLimits(db: Db, now: Date): Promise<void> {
  await db.query('DELETE FROM rate_limit_windows WHERE window_ends_at <= $1', [now]);
}
