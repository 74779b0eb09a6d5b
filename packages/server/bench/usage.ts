/**
 * The usage dashboard's part of the lists bench (issue 10 "Weight and speed", docs/decisions/0020):
 * on the same 10 M events, a year by month, a month by day, a day by hour and the country map for
 * a year, of one project and of every project, p50/p95 over ≥ 50 calls of the HTTP API (answered
 * from the rollups), beside the same question answered by aggregating the raw events table; the
 * ratio is printed. Each answer is first checked against the raw count, so the figure measures a
 * right answer.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { USAGE_EVENT_KEYS, type UsageLocations, type UsagePeriods, type UsagePeriodType } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { monthStart } from '../src/modules/audit/event-partitions.ts';
import { BENCH_HOST } from './bench-app.ts';
import { figure, say, seconds, timing, type Timing } from './report.ts';

const DAY_MS = 86_400_000;
/** Issue 10: every usage question ≤ 100 ms p95 from the rollups. */
const USAGE_MS = 100;

/**
 * The usage key an event counts in, as the provider decides it when it writes the event
 * (docs/decisions/0014 "What counts where"): the raw events' own answer to "what is usage".
 */
const KEYED_EVENTS = `
  SELECT project_id, created_at, country,
         CASE WHEN scope = 'oidc' AND event_status = 'created' AND details->>'action' = 'device.register' THEN 'issued'
              WHEN scope = 'oidc' AND event_status = 'success' AND details->>'action' = 'sign_in' THEN 'oidc'
              WHEN scope = 'authcode' AND event_status = 'success' AND details->>'action' = 'code.exchanged' THEN 'jwt'
              WHEN scope = 'reg-code' AND event_status = 'success' AND details->>'action' = 'reg_code.issued' THEN 'reg-code'
         END AS key
    FROM audit_events`;

/**
 * The rollups the provider would have counted event by event (migration 0010), made in bulk from
 * the loaded events, as a restore would bring them.
 */
export async function addUsageRollups(direct: pg.Client): Promise<void> {
  const started = performance.now();
  const keyed = `(${KEYED_EVENTS}) AS k WHERE key IS NOT NULL`;
  await direct.query(
    `INSERT INTO usage_hourly (project_id, hour, key, count)
     SELECT project_id, date_trunc('hour', created_at, 'UTC'), key, count(*) FROM ${keyed} GROUP BY 1, 2, 3`,
  );
  await direct.query(
    `INSERT INTO usage_daily (project_id, day, key, count)
     SELECT project_id, (created_at AT TIME ZONE 'UTC')::date, key, count(*) FROM ${keyed} GROUP BY 1, 2, 3`,
  );
  await direct.query(
    `INSERT INTO usage_daily_country (project_id, day, country, key, count)
     SELECT project_id, (created_at AT TIME ZONE 'UTC')::date, coalesce(country, 'ZZ'), key, count(*) FROM ${keyed} GROUP BY 1, 2, 3, 4`,
  );
  const { rows } = await direct.query<{ hourly: string; daily: string; country: string }>(
    `SELECT (SELECT count(*) FROM usage_hourly) AS hourly, (SELECT count(*) FROM usage_daily) AS daily, (SELECT count(*) FROM usage_daily_country) AS country`,
  );
  for (const table of ['usage_hourly', 'usage_daily', 'usage_daily_country']) await direct.query(`VACUUM (ANALYZE) ${table}`);
  const r = rows[0];
  say(`  usage rollups from the events: ${r?.hourly} hourly, ${r?.daily} daily, ${r?.country} daily × country rows in ${seconds(started)}`);
}

interface UsageCase {
  name: string;
  /** null: every project (GET usage, glb::usage). */
  project: string | null;
  fromDate: string;
  toDate: string;
  type: 'periods' | 'locations';
  periodType?: UsagePeriodType;
}

const day = (at: Date) => at.toISOString().slice(0, 10);
const BUCKET_FORMAT: Record<UsagePeriodType, string> = { hour: 'YYYY-MM-DD"T"HH24', day: 'YYYY-MM-DD', month: 'YYYY-MM' };

/** The raw aggregation of a case: the events of the range, keyed and counted by bucket (or country), as SQL. */
function rawSql(c: UsageCase, type: UsagePeriodType): { sql: string; params: unknown[] } {
  const from = new Date(`${c.fromDate}T00:00:00Z`);
  const to = new Date(new Date(`${c.toDate}T00:00:00Z`).getTime() + DAY_MS);
  const params: unknown[] = [from, to];
  const project = c.project === null ? '' : `AND project_id = $${params.push(c.project)}`;
  const range = `created_at >= $1 AND created_at < $2 ${project}`;
  if (c.type === 'locations') {
    return {
      sql: `SELECT coalesce(country, 'ZZ') AS country, count(*)::int AS n FROM (${KEYED_EVENTS} WHERE ${range}) AS k
             WHERE key IS NOT NULL AND key <> 'issued' GROUP BY 1 ORDER BY n DESC, country`,
      params,
    };
  }
  return {
    sql: `SELECT to_char(created_at AT TIME ZONE 'UTC', '${BUCKET_FORMAT[type]}') AS bucket, key, count(*)::int AS n
            FROM (${KEYED_EVENTS} WHERE ${range}) AS k WHERE key IS NOT NULL GROUP BY 1, 2`,
    params,
  };
}

/** Does the API's answer say what the raw events say? */
function sameAsRaw(
  c: UsageCase,
  answer: UsagePeriods | UsageLocations,
  raw: Array<{ bucket?: string; country?: string; key?: string; n: number }>,
): boolean {
  if ('locations' in answer) {
    const mine = answer.locations.map((l) => `${l.country}:${l.keys.sum}`).sort();
    return JSON.stringify(mine) === JSON.stringify(raw.map((r) => `${r.country}:${r.n}`).sort());
  }
  const counted = new Map(raw.map((r) => [`${r.bucket}|${r.key}`, r.n]));
  const width = { hour: 13, day: 10, month: 7 }[answer.periodType];
  return answer.periods.every((p) => {
    const bucket = p.period.slice(0, width);
    const of = (key: string) => counted.get(`${bucket}|${key}`) ?? 0;
    return p.keys.issued === of('issued') && USAGE_EVENT_KEYS.every((k) => p.keys.events[k] === of(k));
  });
}

export interface UsageBenchDeps {
  app: FastifyInstance;
  db: Db;
  /** A console session of an account holding usage on `project` and glb::usage. */
  cookie: string;
  project: string;
  now: Date;
  runs: number;
  warmup: number;
  /** Time given to each raw aggregation (a slower one is asked once). */
  rawSeconds: number;
}

export async function benchUsage({ app, db, cookie, project, now, runs, warmup, rawSeconds }: UsageBenchDeps): Promise<void> {
  const started = performance.now();
  // The last twelve whole months and the current one's days so far: the year the data covers.
  const year = { fromDate: day(monthStart(now, -11)), toDate: day(now) };
  const lastMonth = { fromDate: day(monthStart(now, -1)), toDate: day(new Date(monthStart(now).getTime() - DAY_MS)) };
  const yesterday = day(new Date(now.getTime() - DAY_MS));
  const cases: UsageCase[] = [];
  for (const p of [project, null]) {
    const whose = p === null ? 'every project' : 'one project';
    cases.push(
      { name: `${whose}: a year by month`, project: p, ...year, type: 'periods' },
      { name: `${whose}: a month by day`, project: p, ...lastMonth, type: 'periods' },
      { name: `${whose}: a day by hour`, project: p, fromDate: yesterday, toDate: yesterday, type: 'periods' },
      { name: `${whose}: countries over a year`, project: p, ...year, type: 'locations' },
    );
  }

  for (const c of cases) {
    const base = c.project === null ? '/api/usage' : `/api/projects/${c.project}/usage`;
    const query = new URLSearchParams({
      fromDate: `${c.fromDate}T00:00:00Z`,
      toDate: `${c.toDate}T23:59:59Z`,
      ...(c.type === 'locations' ? { type: 'locations', locationType: 'country' } : {}),
    });
    const call = async () => {
      const res = await app.inject({ method: 'GET', url: `${base}?${query}`, headers: { cookie, host: BENCH_HOST } });
      if (res.statusCode !== 200) throw new Error(`${base}?${query} answered ${res.statusCode}: ${res.body}`);
      return JSON.parse(res.body) as UsagePeriods | UsageLocations;
    };
    const answer = await call();
    const type = 'periodType' in answer ? answer.periodType : 'day';
    const raw = rawSql(c, type);
    const rawRows = (await db.query<{ bucket?: string; country?: string; key?: string; n: number }>(raw.sql, raw.params)).rows;
    if (!sameAsRaw(c, answer, rawRows)) throw new Error(`usage ${c.name}: the rollups' answer differs from the raw events' count`);

    for (let i = 0; i < warmup; i += 1) await call();
    const times: number[] = [];
    for (let i = 0; i < runs; i += 1) {
      const t0 = performance.now();
      await call();
      times.push(performance.now() - t0);
    }
    const ours = timing(times);

    // The raw aggregation: the first call warms up (one over a second is counted), then calls until rawSeconds.
    const began = performance.now();
    await db.query(raw.sql, raw.params);
    const firstMs = performance.now() - began;
    const rawTimes = firstMs > 1000 ? [firstMs] : [];
    while (rawTimes.length < runs && performance.now() - began < rawSeconds * 1000) {
      const t0 = performance.now();
      await db.query(raw.sql, raw.params);
      rawTimes.push(performance.now() - t0);
    }
    const slow: Timing = timing(rawTimes);
    const size =
      'periods' in answer
        ? `${answer.periods.length} ${answer.periodType}s, ${answer.totals.sum.toLocaleString('en')} events`
        : `${answer.locations.length} countries`;
    say(
      `  usage ${c.name} (${size}): p50 ${ours.p50.toFixed(1)} ms, p95 ${ours.p95.toFixed(1)} ms — raw events p50 ${slow.p50.toFixed(1)} ms (${slow.runs} run${slow.runs === 1 ? '' : 's'}): ${(slow.p50 / ours.p50).toFixed(slow.p50 / ours.p50 < 10 ? 1 : 0)}×`,
    );
    figure(`usage p95 (${c.name})`, ours.p95, 'ms', USAGE_MS);
    figure(`usage from raw events p50 (${c.name})`, slow.p50, 'ms');
    figure(`usage vs raw events, p50 ratio (${c.name})`, slow.p50 / ours.p50, '×');
  }
  say(`  usage cases in ${seconds(started)}`);
}
