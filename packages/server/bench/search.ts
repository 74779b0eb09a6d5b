/**
 * The search's part of the lists bench (issue 13 "Find anything", docs/decisions/0023): on the same
 * 10 M events and 1 M devices, plus SEARCH_PROJECTS more projects with their applications, keys
 * and accounts, p50/p95 over ≥ 50 calls of GET /search through the HTTP API for each kind of
 * question, asked by an account whose global permission reaches every project and by one holding
 * permissions on a few dozen. A case over its target has each kind's statement EXPLAINed.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { reachesAny, SEARCH_KINDS, searchQuerySchema, searchReach, type SearchResponse } from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import { searchStatement } from '../src/modules/search/search.repository.ts';
import { BENCH_HOST } from './bench-app.ts';
import { explain, figure, say, seconds, timing } from './report.ts';

const PROJECTS = Number(process.env.BENCH_SEARCH_PROJECTS ?? 2000);
const APPS_PER_PROJECT = 50;
const ACCOUNTS = Number(process.env.BENCH_SEARCH_ACCOUNTS ?? 20_000);
/** Issue 13: ≤ 50 ms p95 at the bench's sizes. */
const SEARCH_MS = 50;
// Application names start with one of these, so a name's start is shared by thousands of apps across projects.
const APP_WORDS = ['portal', 'billing', 'mobile', 'admin', 'shop', 'payments', 'intranet', 'support', 'crm', 'analytics'];

export interface SearchBench {
  app: FastifyInstance;
  db: Db;
  direct: pg.Client;
  createSession(accountId: string): Promise<{ sessionId: string }>;
  /** The big project of the lists bench, its second one, and the identity of its busiest device owner. */
  big: string;
  small: string;
  busiest: string;
  runs: number;
  warmup: number;
  plans: 'all' | 'misses' | 'off';
}

/** SEARCH_PROJECTS projects (`Search project 0001` …), 50 applications each with keys, ACCOUNTS staff accounts with a permission each. */
async function load(direct: pg.Client): Promise<void> {
  const started = performance.now();
  await direct.query(
    `INSERT INTO projects (id, name, enabled, email, settings, created_at, updated_at)
     SELECT 'srch' || lpad(n::text, 6, '0'), 'Search project ' || lpad(n::text, 4, '0'), n % 20 <> 0, 'bench@example.test',
            jsonb_build_object('name', 'Search project ' || n), now(), now()
       FROM generate_series(1, $1::int) AS n`,
    [PROJECTS],
  );
  await direct.query(
    `INSERT INTO applications (id, project_id, name, created_at, updated_at)
     SELECT 'app' || lpad(n::text, 8, '0'), 'srch' || lpad((1 + n % $1::int)::text, 6, '0'), ($2::text[])[1 + n % 10] || ' ' || n, now(), now()
       FROM generate_series(1, $1::int * $3::int) AS n`,
    [PROJECTS, APP_WORDS, APPS_PER_PROJECT],
  );
  await direct.query(
    `INSERT INTO application_keys (project_id, application_id, client_id, client_secret_hash, redirect_uris, created_at)
     SELECT project_id, id, rtrim(translate(encode(decode(md5(id), 'hex'), 'base64'), '+/', '-_'), '='), md5(id || 's'), '{https://app.example.com/cb}', now()
       FROM applications WHERE id LIKE 'app%'`,
  );
  await direct.query(
    `INSERT INTO accounts (id, email, name, sort_key, created_at, signed_in_at)
     SELECT 'acct' || n, 'staff' || n || '@example.test', '', 'staff' || n || '@example.test', now(), now() FROM generate_series(1, $1::int) AS n`,
    [ACCOUNTS],
  );
  await direct.query(
    `INSERT INTO account_permissions (account_id, permission, project_id)
     SELECT 'acct' || n, 'cst:' || p || ':*', p FROM (SELECT n, 'srch' || lpad((1 + n % $2::int)::text, 6, '0') AS p FROM generate_series(1, $1::int) AS n) AS x`,
    [ACCOUNTS, PROJECTS],
  );
  for (const table of ['projects', 'applications', 'application_keys', 'accounts', 'account_permissions'])
    await direct.query(`VACUUM (ANALYZE) ${table}`);
  say(
    `  search: ${PROJECTS.toLocaleString('en')} projects, ${(PROJECTS * APPS_PER_PROJECT).toLocaleString('en')} applications with keys, ${ACCOUNTS.toLocaleString('en')} accounts in ${seconds(started)}`,
  );
}

export async function benchSearch(b: SearchBench): Promise<void> {
  await load(b.direct);
  const { rows: picks } = await b.db.query<{ device: string; event: string; client: string }>(
    `SELECT (SELECT id FROM devices WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1) AS device,
            (SELECT id::text FROM audit_events WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1) AS event,
            (SELECT client_id FROM application_keys WHERE application_id = 'app00012345') AS client`,
    [b.big],
  );
  const pick = picks[0] as { device: string; event: string; client: string };

  // Who asks: every project (glb::*), and a few dozen projects (the two big ones among them).
  const callers: Array<[string, string[]]> = [
    ['global', ['glb::*']],
    [
      '30 projects',
      [`cst:${b.big}:*`, `cst:${b.small}:*`, ...Array.from({ length: 28 }, (_, i) => `cst:srch${String(1 + i * 70).padStart(6, '0')}:*`)],
    ],
  ];
  const questions: Array<[string, Record<string, string>]> = [
    ['project id', { q: 'srch000777' }],
    ['project name start (2,000 match)', { q: 'search pro' }],
    ['application id', { q: 'app00012345' }],
    ['client id', { q: pick.client }],
    ['client id start (10 characters)', { q: pick.client.slice(0, 10) }],
    ["application name start 'portal' (10,000 match)", { q: 'portal' }],
    ["application name start 'p' , current project", { q: 'p', project: b.big }],
    ["account email start 'staff1'", { q: 'staff1' }],
    ['account id', { q: 'acct777' }],
    ['mpinId', { q: pick.device }],
    ['device owner, busiest (whole identity)', { q: b.busiest }],
    ["device owner start 'user1'", { q: 'user1' }],
    ['audit event id', { q: pick.event }],
    ['nothing matches', { q: 'zzzz-nothing' }],
  ];

  for (const [who, permissions] of callers) {
    const account = await insertAccount(b.db, { id: randomUUID(), email: `search-${who.replace(/\W/g, '')}@bench.test`, createdAt: new Date() });
    await grantPermissions(b.db, account.id, permissions);
    const cookie = `${SESSION_COOKIE}=${(await b.createSession(account.id)).sessionId}`;
    for (const [name, query] of questions) {
      const url = `/api/search?${new URLSearchParams(query)}`;
      const call = async () => {
        const res = await b.app.inject({ method: 'GET', url, headers: { cookie, host: BENCH_HOST } });
        if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
        return JSON.parse(res.body) as SearchResponse;
      };
      const first = await call();
      for (let i = 0; i < b.warmup; i += 1) await call();
      const times: number[] = [];
      for (let i = 0; i < b.runs; i += 1) {
        const started = performance.now();
        await call();
        times.push(performance.now() - started);
      }
      const t = timing(times);
      const kinds = [...new Set(first.results.map((r) => r.kind))].join(',') || 'none';
      say(
        `  search (${who}) ${name}: ${first.results.length} results (${kinds}), p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms, max ${t.max.toFixed(1)} ms`,
      );
      figure(`search p95 (${who}: ${name})`, t.p95, 'ms', SEARCH_MS);
      figure(`search p50 (${who}: ${name})`, t.p50, 'ms');
      if (b.plans === 'all' || (b.plans === 'misses' && t.p95 > SEARCH_MS)) {
        const q = searchQuerySchema.parse(query);
        const terms = { text: q.q, lower: q.q.toLowerCase(), current: q.project ?? null, limit: q.limit };
        for (const kind of SEARCH_KINDS) {
          const reach = searchReach(permissions, kind);
          const statement = reachesAny(reach) ? searchStatement(kind, terms, reach) : null;
          if (statement) await explain(b.db, kind, ...statement);
        }
      }
    }
  }
}
