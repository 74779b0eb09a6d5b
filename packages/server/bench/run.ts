/**
 * Server bench (`node packages/server/bench/run.ts`, run by `npm run bench`): latency
 * of GET /api/projects/:project/apps on PostgreSQL with ~1,000,000 applications, 200,000 of them in
 * the project listed. Prints one JSON line per figure on stdout ({name, value, unit, target}); every
 * other line (progress, plans) starts with something else. The database is a fresh
 * `latchkey_bench_<random>`, dropped at the end.
 *
 *   LATCHKEY_BENCH_POSTGRES_URL   server to use (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_REQUESTS                timed requests per case (default 200)
 *   BENCH_PLANS=0 | full          no query plans | the whole EXPLAIN (ANALYZE, BUFFERS) (default: the scans)
 *   BENCH_KEEP=1                  keep the database (to EXPLAIN by hand); drop it yourself
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { newProjectSettings, type ApplicationListQuery } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { applicationsTable, freshCounts } from '../src/modules/apps/apps.repository.ts';
import { insertProject } from '../src/modules/projects/projects.repository.ts';
import { BENCH_HOST, benchApp } from './bench-app.ts';
import { figure, percentile, say } from './report.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';

const SERVER_URL = process.env.LATCHKEY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const WARMUP = 20;
const PLANS = process.env.BENCH_PLANS === '0' ? 'off' : process.env.BENCH_PLANS === 'full' ? 'full' : 'summary';
const KEEP = process.env.BENCH_KEEP === '1';

const BIG_PROJECT_APPS = 200_000;
const OTHER_PROJECTS = 4_000;
const APPS_PER_OTHER_PROJECT = 200;
const TOTAL_APPS = BIG_PROJECT_APPS + OTHER_PROJECTS * APPS_PER_OTHER_PROJECT;

// 64 words: names are "<Word> <word> <n>", so one second word is in 1 name of 64.
const WORDS = (
  'amber arrow aspen atlas beacon birch bison blaze cedar cobalt comet coral crane delta ember falcon ' +
  'fern flint forge frost garnet glacier harbor hazel heron indigo iris jade juniper kestrel lagoon lark ' +
  'lotus lumen maple marble meadow mesa nectar nova oak onyx opal orbit osprey pebble pine prism quartz ' +
  'raven reef ridge sable sage slate spruce summit tidal topaz tundra umber violet willow zephyr'
).split(' ');

async function seed(db: Db, url: string, bigProject: string): Promise<void> {
  const now = new Date();
  await insertProject(db, { id: bigProject, email: 'bench@example.test', createdBy: null, settings: newProjectSettings('Bench'), now });
  await db.query(
    `INSERT INTO projects (id, name, enabled, email, settings, version, created_at, updated_at)
     SELECT 'other' || g, 'Other ' || g, true, 'bench@example.test', '{}'::jsonb, 1, now(), now()
       FROM generate_series(1, $1::int) AS g`,
    [OTHER_PROJECTS],
  );

  // Bulk load the way a restore does: drop the secondary indexes, load in one statement, rebuild.
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE tablename = 'applications' AND indexname <> 'applications_pkey'`,
  );
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`);

  let started = performance.now();
  // Apps 1..200,000 in the big project, the rest 200 to each other project; 1 in 10 disabled;
  // created one second apart; ids random-looking 16 characters like the server's.
  await db.query(
    `INSERT INTO applications (id, project_id, name, platform_code, enabled, logo_url, url, created_at, updated_at, version)
     SELECT substr(md5(g::text || $5), 1, 16),
            CASE WHEN g <= $2 THEN $3 ELSE 'other' || (1 + (g - $2 - 1) / $4) END,
            initcap(w.words[1 + (g * 7) % cardinality(w.words)]) || ' ' || w.words[1 + (g * 13 + g / 64) % cardinality(w.words)] || ' ' || g,
            'oidc', g % 10 <> 0, '', '', now() - g * interval '1 second', now() - g * interval '1 second', 1
       FROM generate_series(1, $1::int) AS g, (SELECT $6::text[] AS words) AS w`,
    [TOTAL_APPS, BIG_PROJECT_APPS, bigProject, APPS_PER_OTHER_PROJECT, randomBytes(4).toString('hex'), WORDS],
  );
  say(`  inserted ${TOTAL_APPS.toLocaleString('en')} applications in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  started = performance.now();
  // One connection, so the session setting holds for every rebuild, and VACUUM outside a transaction.
  const direct = new pg.Client({ connectionString: url });
  await direct.connect();
  try {
    await direct.query(`SET maintenance_work_mem = '256MB'`);
    for (const index of indexes) await direct.query(index.def);
    say(`  rebuilt ${indexes.length} indexes (${indexes.map((i) => i.name).join(', ')}) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    started = performance.now();
    // Autovacuum would get there; the bench does not wait for it (index-only scans need the visibility map).
    await direct.query('VACUUM ANALYZE applications');
    await direct.query('ANALYZE projects');
    say(`  vacuum analyze in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await direct.end();
  }
}

interface Case {
  name: string;
  query: Partial<Record<'sort' | 'direction' | 'offset' | 'limit' | 'name' | 'enabled', string>>;
  target: number;
  /** Expected number of matches, as a sanity check that the case measures what it says. */
  total?: number;
}

/** EXPLAIN ANALYZE of the two statements the server runs for `query`: the scans and the time, or all of it. */
async function printPlans(db: Db, projectId: string, query: Case['query']): Promise<void> {
  const parsed: ApplicationListQuery = {
    sort: (query.sort ?? 'name') as ApplicationListQuery['sort'],
    direction: (query.direction ?? 'asc') as ApplicationListQuery['direction'],
    offset: Number(query.offset ?? 0),
    limit: Number(query.limit ?? 10),
    ...(query.name ? { name: query.name } : {}),
    ...(query.enabled ? { enabled: query.enabled === 'true' } : {}),
  };
  const sql = applicationsTable.sql(projectId, parsed);
  for (const [label, text, params] of [
    ['page', sql.pageSql, sql.pageParams],
    ['count', sql.countSql, sql.countParams],
  ] as const) {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, params);
    const lines = rows.map((r) => r['QUERY PLAN']);
    if (PLANS === 'full') {
      say(`    ${label} plan:`);
      for (const line of lines) say(`      ${line}`);
      continue;
    }
    const scans = lines
      .filter((l) => /Scan|Filter:|Index Cond:/.test(l))
      .map((l) =>
        l
          .trim()
          .replace(/^->\s*/, '')
          .replace(/\s*\(cost=.*$/, ''),
      );
    const time = lines.find((l) => l.startsWith('Execution Time'))?.replace('Execution Time: ', '') ?? '';
    say(`    ${label} ${time}: ${scans.join(' | ')}`);
  }
}

async function main(): Promise<void> {
  const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_bench');
  const { db, name: dbName } = scratch;
  const url = new URL(scratch.url);
  say(`Server bench: ${dbName} on ${url.host}`);
  let closeApp: (() => Promise<void>) | null = null;

  try {
    await migrate(db);
    const bigProject = 'benchbigproject1';
    await seed(db, url.href, bigProject);
    // The bulk load wrote no totals: the first list counts them (freshCounts), once; timed apart.
    const counting = performance.now();
    await freshCounts(db, bigProject);
    figure('application totals counted after a bulk load (200,000 in the project)', performance.now() - counting, 'ms');

    const built = await benchApp(db);
    closeApp = () => built.app.close();
    // A real account and session through the repositories and the session service, like the test helper.
    const account = await insertAccount(db, { id: randomUUID(), email: 'bench@example.test', createdAt: new Date() });
    await grantPermissions(db, account.id, [`cst:${bigProject}:apps`]);
    const session = await built.services.sessions.createSession(account.id, null);
    const cookie = `${SESSION_COOKIE}=${session.sessionId}`;

    // Targets: a first page of any sort or filter within 50 ms at p95, with two costs stated. A deep
    // page reads one index entry per skipped row (~13 ms of database time at offset 100,000, linear
    // in the offset): 100 ms. A name filter has no kept total: its count reads the project's name
    // index with the LIKE as a filter (~30 ms for 200,000 entries) unless the term is rare enough
    // for the trigram index (then ~1 ms): 75 ms for a common term in a 200,000-app project.
    const cases: Case[] = [
      { name: 'first page', query: {}, target: 50, total: BIG_PROJECT_APPS },
      { name: 'deep page, offset 100,000', query: { offset: '100000' }, target: 100, total: BIG_PROJECT_APPS },
      { name: "name contains 'falcon', 3% match", query: { name: 'falcon' }, target: 75 },
      { name: "name contains '12345', 12 match", query: { name: '12345' }, target: 50, total: 12 },
      { name: 'enabled=false', query: { enabled: 'false' }, target: 50, total: BIG_PROJECT_APPS / 10 },
      { name: 'sort enabled desc', query: { sort: 'enabled', direction: 'desc' }, target: 50, total: BIG_PROJECT_APPS },
      { name: 'sort createdAt desc, enabled=true', query: { sort: 'createdAt', direction: 'desc', enabled: 'true' }, target: 50 },
    ];

    for (const c of cases) {
      const path = `/api/projects/${bigProject}/apps?${new URLSearchParams(c.query)}`;
      const call = async () => {
        const res = await built.app.inject({ method: 'GET', url: path, headers: { cookie, host: BENCH_HOST } });
        if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${res.body}`);
        return JSON.parse(res.body) as { total: number; list: unknown[] };
      };
      const first = await call();
      if (c.total !== undefined && first.total !== c.total) throw new Error(`${c.name}: total ${first.total}, expected ${c.total}`);
      if (first.list.length === 0 && (c.total ?? 1) > 0) say(`  note: ${c.name} answered an empty page (total ${first.total})`);
      for (let i = 0; i < WARMUP; i += 1) await call();
      const times: number[] = [];
      for (let i = 0; i < REQUESTS; i += 1) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      say(
        `  ${c.name}: total ${first.total}, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms, max ${(times.at(-1) as number).toFixed(1)} ms`,
      );
      figure(`apps list p95 (${c.name}, 200k apps)`, percentile(times, 95), 'ms', c.target);

      if (PLANS !== 'off') await printPlans(db, bigProject, c.query);
    }
  } finally {
    await closeApp?.();
    if (KEEP) {
      await db.close();
      say(`  kept ${dbName}`);
    } else {
      await scratch.drop();
      say(`  dropped ${dbName}`);
    }
  }
}

main().catch((error: unknown) => {
  console.error('Server bench failed:', error);
  process.exit(1);
});
