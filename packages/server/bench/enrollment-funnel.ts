/**
 * The enrollment funnel's reads at scale (issue 37, docs/decisions/0050), measured on their own:
 * `node packages/server/bench/enrollment-funnel.ts [people]` (default 1,000,000) makes a
 * scratch PostgreSQL database, migrates it, loads one project with that many people (half signed in
 * within the last 30 days, a third of all holding an active passkey — and so noted at their last
 * sign-in, as the server notes it — some revoked ones), a year of
 * enrollment rollup rows, and another project of the same size beside it; then times the funnel
 * service's answer (its two statements) for a year, a month and a day, p50/p95 over 30 calls each,
 * after checking each answer against a direct count. The database is dropped at the end.
 */
import { performance } from 'node:perf_hooks';
import { openPostgres } from '../src/db/postgres.ts';
import { migrate } from '../src/db/migrate.ts';
import { createUsageService } from '../src/modules/usage/usage.service.ts';
import { createScratchPostgres, TEST_POSTGRES_URL } from '../test/support/scratch-postgres.ts';

const PEOPLE = Number(process.argv[2] ?? 1_000_000);
const NOW = new Date('2026-11-28T12:00:00Z');
const DAY = 86_400_000;

function p(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

async function main(): Promise<void> {
  const scratch = await createScratchPostgres(TEST_POSTGRES_URL, 'latchkey_bench_funnel');
  try {
    await migrate(scratch.db);
    const direct = openPostgres(scratch.url);
    const loadStarted = performance.now();
    for (const project of ['pa', 'pb']) {
      await direct.query(
        `INSERT INTO projects (id, name, enabled, email, settings, issuer, version, created_at, updated_at)
                          VALUES ($1, $1, true, 'owner@example.com', '{}', '{}', 1, now(), now())`,
        [project],
      );
      // Half signed in within the last 30 days (spread over them), the rest before the year.
      await direct.query(
        `INSERT INTO project_users (project_id, id, email, created_at, last_sign_in_at, passkey_at_sign_in)
         SELECT $1, 'u' || g, 'u' || g || '@example.com', $2::timestamptz - interval '400 days',
                CASE WHEN g % 2 = 0 THEN $2::timestamptz - (g % 30) * interval '1 day' ELSE $2::timestamptz - interval '500 days' END,
                g % 3 = 0
           FROM generate_series(1, $3) g`,
        [project, NOW, PEOPLE],
      );
      // A third hold an active passkey; every seventh also has a revoked one.
      await direct.query(
        `INSERT INTO devices (project_id, id, user_id, public_key, counter, transports, name, registered_with, created_at, revoked)
         SELECT $1, 'c' || g, 'u' || g, 'AQID', 0, '{internal}'::text[], 'Chrome on Linux', 'email_code', $2::timestamptz - interval '300 days', false
           FROM generate_series(1, $3) g WHERE g % 3 = 0
         UNION ALL
         SELECT $1, 'r' || g, 'u' || g, 'AQID', 0, '{internal}'::text[], 'Old key', 'email_code', $2::timestamptz - interval '300 days', true
           FROM generate_series(1, $3) g WHERE g % 7 = 0`,
        [project, NOW, PEOPLE],
      );
      await direct.query(
        `INSERT INTO enrollment_daily (project_id, day, key, count)
         SELECT $1, d::date, k, 100 + (extract(doy FROM d)::int % 50)
           FROM generate_series($2::date - 365, $2::date, interval '1 day') d,
                unnest(ARRAY['offer_shown','offer_created','offer_declined','sign_in_passkey','sign_in_fallback','passkey_refused']) k`,
        [project, NOW.toISOString().slice(0, 10)],
      );
    }
    for (const table of ['project_users', 'devices', 'enrollment_daily']) await direct.query(`VACUUM (ANALYZE) ${table}`);
    console.log(`loaded 2 projects × ${PEOPLE.toLocaleString('en')} people in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const usage = createUsageService({ db: scratch.db, clock: { now: () => NOW } });
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const cases = [
      { name: 'last 30 days', fromDate: day(new Date(NOW.getTime() - 29 * DAY)), toDate: day(NOW) },
      { name: 'a year', fromDate: day(new Date(NOW.getTime() - 364 * DAY)), toDate: day(NOW) },
      { name: 'today', fromDate: day(NOW), toDate: day(NOW) },
    ];
    for (const c of cases) {
      const q = { fromDate: `${c.fromDate}T00:00:00Z`, toDate: `${c.toDate}T23:59:59Z` };
      const answer = await usage.enrollment('pa', q);
      const { rows } = await direct.query<{ total: string; with: string }>(
        `SELECT count(*) AS total,
                count(*) FILTER (WHERE EXISTS (SELECT 1 FROM devices d WHERE d.project_id = 'pa' AND d.user_id = u.id AND NOT d.revoked)) AS with
           FROM project_users u WHERE project_id = 'pa' AND last_sign_in_at >= $1 AND last_sign_in_at < $2::date + 1`,
        [`${c.fromDate}T00:00:00Z`, c.toDate],
      );
      if (answer.activeUsers.total !== Number(rows[0]?.total) || answer.activeUsers.withPasskey !== Number(rows[0]?.with)) {
        throw new Error(`${c.name}: ${JSON.stringify(answer.activeUsers)} against ${JSON.stringify(rows[0])}`);
      }
      const times: number[] = [];
      for (let i = 0; i < 30; i += 1) {
        const started = performance.now();
        await usage.enrollment('pa', q);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      console.log(
        `${c.name}: active ${answer.activeUsers.total.toLocaleString('en')}, with a passkey ${answer.activeUsers.withPasskey.toLocaleString('en')}, offers shown ${answer.offers.shown.toLocaleString('en')} — p50 ${p(times, 0.5).toFixed(1)} ms, p95 ${p(times, 0.95).toFixed(1)} ms`,
      );
      // One figure a case for `npm run bench`: the usage dashboard's target (100 ms at p95).
      const p95 = Math.round(p(times, 0.95) * 10) / 10;
      console.log(
        JSON.stringify({ name: `enrollment funnel p95 (${PEOPLE.toLocaleString('en')} people, ${c.name})`, value: p95, unit: 'ms', target: 100 }),
      );
    }
    const plan = await direct.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)
       SELECT count(*), count(*) FILTER (WHERE passkey_at_sign_in)
         FROM project_users WHERE project_id = 'pa' AND last_sign_in_at >= $1 AND last_sign_in_at < $2`,
      [new Date(NOW.getTime() - 29 * DAY), new Date(NOW.getTime() + DAY)],
    );
    console.log(plan.rows.map((r) => `  ${r['QUERY PLAN']}`).join('\n'));
    await direct.close();
  } finally {
    await scratch.drop();
  }
}

await main();
