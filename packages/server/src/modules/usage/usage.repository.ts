import type { EnrollmentKey, UsageKey, UsagePeriodType } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';

export interface UsageSelection {
  projectId: string | null;
  keys: readonly UsageKey[];
}

/** A bucket as the reads name it: `YYYY-MM-DDTHH` (hour), `YYYY-MM-DD` (day), `YYYY-MM` (month), UTC. */
export function bucketName(start: Date, type: UsagePeriodType): string {
  return start.toISOString().slice(0, type === 'hour' ? 13 : type === 'day' ? 10 : 7);
}

const day = (at: Date) => at.toISOString().slice(0, 10);

/** `$1` the project, where one is selected: the condition and the parameters it starts with. */
function selected(s: UsageSelection): { where: string; params: unknown[] } {
  return s.projectId === null
    ? { where: 'key = ANY($1)', params: [s.keys] }
    : { where: 'project_id = $2 AND key = ANY($1)', params: [s.keys, s.projectId] };
}

/**
 * The counts of the buckets of `type` from `from` (a bucket's start) up to `end` (the start of the
 * bucket after the last), by bucket name and key. Hours come from the hourly rollup; days and
 * months from the daily one (a month is the sum of at most 31 rows a key).
 */
export async function usageByBucket(
  db: Db,
  s: UsageSelection,
  type: UsagePeriodType,
  from: Date,
  end: Date,
): Promise<Map<string, Map<UsageKey, number>>> {
  const { where, params } = selected(s);
  const n = params.length;
  const sql =
    type === 'hour'
      ? `SELECT to_char(hour AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24') AS bucket, key, sum(count)::float8 AS n
           FROM usage_hourly WHERE ${where} AND hour >= $${n + 1} AND hour < $${n + 2} GROUP BY 1, 2`
      : `SELECT to_char(day, '${type === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM'}') AS bucket, key, sum(count)::float8 AS n
           FROM usage_daily WHERE ${where} AND day >= $${n + 1}::date AND day < $${n + 2}::date GROUP BY 1, 2`;
  const bounds = type === 'hour' ? [from, end] : [day(from), day(end)];
  const { rows } = await db.query<{ bucket: string; key: UsageKey; n: number }>(sql, [...params, ...bounds]);
  const byBucket = new Map<string, Map<UsageKey, number>>();
  for (const row of rows) {
    const keys = byBucket.get(row.bucket) ?? new Map<UsageKey, number>();
    keys.set(row.key, row.n);
    byBucket.set(row.bucket, keys);
  }
  return byBucket;
}

/** The counts by country (ISO 3166-1 alpha-2, ZZ unknown) of the days from `from` up to `end` (exclusive), largest first. */
export async function usageByCountry(db: Db, s: UsageSelection, from: Date, end: Date): Promise<Array<{ country: string; count: number }>> {
  const { where, params } = selected(s);
  const n = params.length;
  const { rows } = await db.query<{ country: string; count: number }>(
    `SELECT country, sum(count)::float8 AS count FROM usage_daily_country
      WHERE ${where} AND day >= $${n + 1}::date AND day < $${n + 2}::date
      GROUP BY country ORDER BY count DESC, country`,
    [...params, day(from), day(end)],
  );
  return rows;
}

/**
 * The projects with the most events (keys other than `issued`) in the days from `from` up to `end`
 * (exclusive), then the most registrations, with their names; at most `limit`.
 */
export async function usageByProject(
  db: Db,
  keys: readonly UsageKey[],
  from: Date,
  end: Date,
  limit: number,
): Promise<Array<{ projectId: string; name: string; issued: number; sum: number }>> {
  const { rows } = await db.query<{ projectId: string; name: string; issued: number; sum: number }>(
    `WITH counted AS (
       SELECT project_id,
              coalesce(sum(count) FILTER (WHERE key = 'issued'), 0)::float8 AS issued,
              coalesce(sum(count) FILTER (WHERE key <> 'issued'), 0)::float8 AS sum
         FROM usage_daily
        WHERE key = ANY($1) AND day >= $2::date AND day < $3::date
        GROUP BY project_id
        ORDER BY sum DESC, issued DESC, project_id
        LIMIT $4
     )
     SELECT c.project_id AS "projectId", p.name, c.issued, c.sum
       FROM counted c JOIN projects p ON p.id = c.project_id
      ORDER BY c.sum DESC, c.issued DESC, p.name, c.project_id`,
    [keys, day(from), day(end), limit],
  );
  return rows;
}

/** The enrollment rollup's counts (migration 0038) of a project's days from `from` up to `end` (exclusive), by key. */
export async function enrollmentCounts(db: Db, projectId: string, from: Date, end: Date): Promise<Map<EnrollmentKey, number>> {
  const { rows } = await db.query<{ key: EnrollmentKey; n: number }>(
    `SELECT key, sum(count)::float8 AS n FROM enrollment_daily
      WHERE project_id = $1 AND day >= $2::date AND day < $3::date GROUP BY key`,
    [projectId, day(from), day(end)],
  );
  return new Map(rows.map((r) => [r.key, r.n]));
}

/**
 * The project's people whose last sign-in falls from `from` up to `end`, and how many of them held
 * an active passkey at it: a range of project_users_sign_in_passkey_idx, read index-only (migration 0038).
 */
export async function activeUsersWithPasskeys(db: Db, projectId: string, from: Date, end: Date): Promise<{ total: number; withPasskey: number }> {
  const { rows } = await db.query<{ total: number; withPasskey: number }>(
    `SELECT count(*)::float8 AS total, count(*) FILTER (WHERE passkey_at_sign_in)::float8 AS "withPasskey"
       FROM project_users WHERE project_id = $1 AND last_sign_in_at >= $2 AND last_sign_in_at < $3`,
    [projectId, from, end],
  );
  return rows[0] ?? { total: 0, withPasskey: 0 };
}
