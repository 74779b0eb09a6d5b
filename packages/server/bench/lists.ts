/**
 * Lists bench (`node packages/server/bench/lists.ts`, run by `npm run bench`): the
 * devices list and the audit log (issue 9 "Speed", docs/decisions/0019) on PostgreSQL at
 * 10,000,000 events and 1,000,000 devices in one project, plus a second project (1,000,000 events,
 * 100,000 devices) so that the project filter is real, over the last 12 months.
 *
 *  1. Bulk load, set-based (INSERT … SELECT generate_series), into a fresh `latchkey_bench_<random>`
 *     migrated as the server does; the monthly partitions made by the server's own
 *     ensureEventPartitions; secondary indexes and the devices' foreign key dropped for the load
 *     and rebuilt after it; VACUUM ANALYZE.
 *  2. p50/p95 over BENCH_RUNS (≥ 50) calls of GET projects/{project}/audit and …/mpinids through
 *     the HTTP API (app.inject: routing, session, guard, validation, the repositories, JSON), for
 *     the first page of each filter and sort in the default month and over 12 months, filters that
 *     match nothing, a user with no events, page 1,000 (offset 9,990 at the default 10 a page), and
 *     the capped total alone (the count statement the repository runs, timed on its own).
 *  3. The same audit questions asked the way Keycloak's admin events query asks them: one
 *     unpartitioned copy of the events (`kc_events`) with only Keycloak's time index (IDX_EVENT_TIME
 *     is (REALM_ID, EVENT_TIME): here (project_id, created_at)), an exact count(*) and LIMIT/OFFSET,
 *     as SQL with no HTTP around it; the ratio of the p50s is printed.
 *  4. The usage dashboard's questions (bench/usage.ts, issue 10) from rollups made of the same
 *     events, beside the same questions answered by aggregating the raw events.
 *  5. The search (bench/search.ts, issue 13) on the same rows plus 2,000 projects, 100,000
 *     applications and 20,000 accounts, by a global account and by one of 30 projects.
 * Prints one JSON line per figure ({name, value, unit, target, better?}); other lines are progress
 * and plans. A call over its target has its statements EXPLAINed (BENCH_PLANS=all: every case's).
 *
 *   LATCHKEY_BENCH_POSTGRES_URL   server to use (default postgres://postgres@127.0.0.1:5432/postgres)
 *   BENCH_EVENTS / BENCH_DEVICES  rows of the big project (default 10,000,000 / 1,000,000)
 *   BENCH_RUNS                    timed calls per case (default and least 50)
 *   BENCH_KC_SECONDS              time given to each Keycloak-shaped case (default 5; a slower call is made once)
 *   BENCH_PLANS=all | 0           EXPLAIN every case | none (default: the cases over their target)
 *   BENCH_KEEP=1                  keep the database (to EXPLAIN by hand); drop it yourself
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import {
  auditListQuerySchema,
  deviceListQuerySchema,
  endUserListQuerySchema,
  newProjectSettings,
  requireDateRange,
  TOTAL_CAP,
  type AuditList,
  type DeviceList,
  type EndUserList,
} from '@latchkey/domain';
import type { Db } from '../src/db/db.ts';
import { migrate } from '../src/db/migrate.ts';
import { SESSION_COOKIE } from '../src/http/cookies.ts';
import { grantPermissions, insertAccount } from '../src/modules/accounts/accounts.repository.ts';
import type { SecretBox } from '../src/crypto.ts';
import { auditTableFor } from '../src/modules/audit/audit-list.ts';
import { ensureEventPartitions, monthStart } from '../src/modules/audit/event-partitions.ts';
import { devicesTable } from '../src/people/devices.repository.ts';
import { endUsersTable } from '../src/people/end-users.repository.ts';
import { insertProject } from '../src/modules/projects/projects.repository.ts';
import { deviceNameFromUserAgent } from '../src/oidc/device-name.ts';
import { BENCH_HOST, benchApp } from './bench-app.ts';
import { createScratchPostgres } from '../test/support/scratch-postgres.ts';
import { explain, figure, say, seconds, timing, type Timing } from './report.ts';
import { benchSearch } from './search.ts';
import { addUsageRollups, benchUsage } from './usage.ts';

const SERVER_URL = process.env.LATCHKEY_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 1_000_000);
const RUNS = Math.max(50, Number(process.env.BENCH_RUNS ?? 50));
const WARMUP = 10;
const KC_SECONDS = Number(process.env.BENCH_KC_SECONDS ?? 5);
const PLANS = process.env.BENCH_PLANS === '0' ? 'off' : process.env.BENCH_PLANS === 'all' ? 'all' : 'misses';
const KEEP = process.env.BENCH_KEEP === '1';

// The big project's people scale with its events: 200,000 identities at 10 M events. Ranks past
// USERS exist in project_users but never signed in (the "user with no events").
// The people the events and devices are of (their distribution is the audit and devices cases').
const USERS = Math.max(1000, Math.round(EVENTS / 50));
// Issue 24: the users list at a million users: the project's users, of whom the first USERS act.
const ALL_USERS = Math.max(USERS, Math.round(EVENTS / 10));
const IDLE_USERS = 1000;
const OTHER = { events: Math.round(EVENTS / 10), devices: Math.round(DEVICES / 10), users: Math.round(USERS / 10), allUsers: Math.round(USERS / 10) };
const BIG = 'benchlistsbig01';
const SMALL = 'benchlistssmall1';
const DAY_MS = 86_400_000;

// Targets (issue 9 "Speed").
const FIRST_PAGE_MS = 50;
const EMPTY_MS = 50;
const DEEP_PAGE_MS = 200;
const KC_RATIO = 100;

// A few dozen browsers, most common first (the load picks them skewed towards the start); the
// device names are the server's own names for them (deviceNameFromUserAgent).
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/133.0 Mobile/15E148 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  'Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Linux; Android 12; moto g(60)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/129.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Safari/605.1.15',
  'Dalvik/2.1.0 (Linux; U; Android 11; M2102J20SG Build/RKQ1.200826.002)',
  'okhttp/4.12.0',
  'curl/8.5.0',
];
const DEVICE_NAMES = USER_AGENTS.map((ua) => deviceNameFromUserAgent(ua));
/** Names users gave their passkeys (1 in 30 devices). */
const CUSTOM_NAMES = ['Work laptop', 'My phone', 'YubiKey 5C', 'Home PC', 'iPhone (personal)', 'Office desktop', 'Titan key', 'Pixel 8'];
const COUNTRIES = ['GB', 'US', 'DE', 'FR', 'RO', 'NL', 'ES', 'IT', 'IN', 'BR', 'CA', 'PL'];
const EMAIL_DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'acme.test', 'example.org', 'proton.me', 'icloud.com', 'corp.example'];

/** The identity of the rank-`n` user (9 in 10 an email address, 1 in 10 a user id), lower-case as the server stores them. */
function identitySql(n: string): string {
  return `CASE WHEN ${n} % 10 = 9 THEN 'member-' || ${n} ELSE 'user' || ${n} || '@' || ($DOMAINS::text[])[1 + ${n} % ${EMAIL_DOMAINS.length}] END`;
}
/** identitySql in TypeScript. */
function identityOf(n: number): string {
  return n % 10 === 9 ? `member-${n}` : `user${n}@${EMAIL_DOMAINS[n % EMAIL_DOMAINS.length]}`;
}
/** A 22-character base64url id, as randomToken(16) makes, derived from `seed`. */
const tokenSql = (seed: string) => `rtrim(translate(encode(decode(md5(${seed}), 'hex'), 'base64'), '+/', '-_'), '=')`;
/** A public IPv4 address from a number (its 1.0.0.0 + n % 3.6e9), or in 10/8 when `private10` says so. */
const ipSql = (n: string, private10: string) =>
  `host(CASE WHEN ${private10} THEN '10.0.0.0'::inet + (${n} % 16777216) ELSE '1.0.0.0'::inet + (${n} % 3600000000) END)`;

/** Replaces the named $PARAMS of a statement by positional ones. */
function bindNamed(sql: string, named: Record<string, unknown>): { text: string; values: unknown[] } {
  const names = Object.keys(named);
  const text = sql.replace(/\$([A-Z_]+)/g, (_, name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw new Error(`no parameter ${name}`);
    return `$${i + 1}`;
  });
  return { text, values: names.map((n) => named[n]) };
}

interface Loaded {
  now: Date;
  start: Date;
}

async function load(direct: pg.Client, db: Db): Promise<Loaded> {
  const now = new Date();
  // Twelve months of events, ending now: the current month (the default range) is partly filled.
  const start = new Date(now.getTime() - 365 * DAY_MS);
  const run = async (sql: string, named: Record<string, unknown>) => {
    const { text, values } = bindNamed(sql, named);
    return direct.query(text, values);
  };

  for (const [id, name] of [
    [BIG, 'Bench big'],
    [SMALL, 'Bench small'],
  ] as const) {
    await insertProject(db, { id, email: 'bench@example.test', createdBy: null, settings: newProjectSettings(name), now: start });
  }
  // The server's own partition upkeep, as if it had run every month of the year.
  let started = performance.now();
  const partitions: string[] = [];
  for (let back = 12; back >= 0; back -= 1) partitions.push(...(await ensureEventPartitions(db, monthStart(now, -back))).created);
  say(`  ${partitions.length} monthly partitions (${partitions[0]} … ${partitions.at(-1)}) in ${seconds(started)}`);

  // Bulk load the way a restore does: secondary indexes and the devices' foreign key go, the rows
  // come in one statement per table in key order, then the indexes are built once.
  const { rows: indexes } = await direct.query<{ name: string; def: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid IN ('devices'::regclass, 'audit_events'::regclass)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
  );
  const { rows: foreign } = await direct.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'devices'::regclass AND contype = 'f'`,
  );
  for (const f of foreign) await direct.query(`ALTER TABLE devices DROP CONSTRAINT ${f.name}`);
  for (const index of indexes) await direct.query(`DROP INDEX ${index.name}`);

  const loadStarted = performance.now();
  await direct.query('SELECT setseed(0.42)');
  for (const p of [
    { id: BIG, users: USERS, allUsers: ALL_USERS, events: EVENTS, devices: DEVICES },
    { id: SMALL, ...OTHER },
  ]) {
    started = performance.now();
    // End users (identity of rank n), IDLE_USERS of them registered and never seen again.
    await run(
      `INSERT INTO project_users (project_id, id, email, username, created_at, last_sign_in_at, blocked_at)
       SELECT $PROJECT, ${tokenSql(`$PROJECT || ':' || n`)},
              CASE WHEN n % 10 = 9 THEN NULL ELSE ${identitySql('n')} END,
              CASE WHEN n % 10 = 9 THEN ${identitySql('n')} END,
              -- Spread over the year in rank order; two in three signed in since; one in a hundred blocked.
              $START::timestamptz + (n::float / ($ALL::int + ${IDLE_USERS})) * interval '360 days',
              CASE WHEN n % 3 <> 0 THEN $START::timestamptz + (n::float / ($ALL::int + ${IDLE_USERS})) * interval '360 days' + (n % 97) * interval '1 hour' END,
              CASE WHEN n % 100 = 42 THEN $START::timestamptz + interval '300 days' END
         FROM generate_series(0, $ALL::int + ${IDLE_USERS} - 1) AS n`,
      { PROJECT: p.id, ALL: p.allUsers, DOMAINS: EMAIL_DOMAINS, START: start },
    );
    const users = seconds(started);

    // Devices: owners skewed (rank ∝ random¹·⁵: a few people with hundreds of test devices, most
    // with a handful), created over the year in order, 1 in 25 revoked, 1 in 5 on a 10/8 address.
    started = performance.now();
    await run(
      `INSERT INTO devices (project_id, id, user_id, public_key, counter, transports, name, ip, country,
                            created_at, last_used_at, revoked, revoked_at, revoke_reason, registered_with)
       SELECT $PROJECT, ${tokenSql(`$PROJECT || ':d:' || d.g`)}, u.id,
              'pQECAyYgASFYIGZha2Uta2V5LWZvci1iZW5jaC1vbmx5', d.g % 50, '{internal,hybrid}',
              CASE WHEN d.rc < 0.033 THEN ($CUSTOM::text[])[1 + d.g % ${CUSTOM_NAMES.length}] ELSE ($NAMES::text[])[1 + d.ua] END,
              ${ipSql('d.ipn', 'd.rp < 0.2')},
              CASE WHEN d.rp < 0.2 THEN 'ZZ' ELSE ($COUNTRIES::text[])[1 + d.ipn % ${COUNTRIES.length}] END,
              d.at, d.at + (d.rl * ($NOW::timestamptz - d.at)), d.rr < 0.04,
              CASE WHEN d.rr < 0.04 THEN d.at + (d.rl * ($NOW::timestamptz - d.at)) END,
              CASE WHEN d.rr < 0.04 THEN 'PORTAL_REVOKE' END,
              CASE WHEN d.g % 7 = 0 THEN 'quickcode' ELSE 'email_code' END
         FROM (SELECT g, $START::timestamptz + (g - 1 + random()) * ($SPAN::float8 / $N::int) * interval '1 millisecond' AS at,
                      floor($USERS * random() ^ 1.5)::int AS n, floor(${USER_AGENTS.length} * random() ^ 2)::int AS ua,
                      floor(random() * 3600000000)::bigint AS ipn, random() AS rp, random() AS rr, random() AS rc, random() AS rl
                 FROM generate_series(1, $N::int) AS g) AS d
         JOIN project_users u ON u.project_id = $PROJECT AND u.id = ${tokenSql(`$PROJECT || ':' || d.n`)}`,
      {
        PROJECT: p.id,
        N: p.devices,
        USERS: p.users,
        START: start,
        NOW: now,
        SPAN: now.getTime() - start.getTime(),
        NAMES: DEVICE_NAMES,
        CUSTOM: CUSTOM_NAMES,
        COUNTRIES,
      },
    );
    const devices = seconds(started);

    // Events, in key order: users skewed (rank ∝ random²: the busiest person ~0.2 % of all
    // events, the quietest a few a year); scope oidc 62 %, authcode 30 %, reg-code 5 %, console 3 %;
    // results per scope (oidc: success 80 %, failed 8 %, created 6 %, denied 3 %, disabled 2 %,
    // error 1 %); a refused request names no user or device; 7 in 10 from the user's usual address.
    started = performance.now();
    await run(
      `INSERT INTO audit_events (project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details)
       SELECT $PROJECT, e.at,
              (lpad(to_hex((extract(epoch FROM e.at) * 1000)::bigint), 12, '0') || '7' || substr(e.h, 1, 3) || '8' || substr(e.h, 4, 15))::uuid,
              -- The person's id (project_users.id of rank n), as the server stores an end user's event (docs/decisions/0046).
              CASE WHEN NOT e.anonymous THEN ${tokenSql(`$PROJECT || ':' || e.n`)} END,
              CASE WHEN e.anonymous OR (e.scope = 'console' AND e.rx < 0.5) THEN NULL
                   WHEN e.rx > 0.97 THEN ($CUSTOM::text[])[1 + e.n % ${CUSTOM_NAMES.length}]
                   ELSE ($NAMES::text[])[1 + e.ua] END,
              e.scope, e.status, e.ip,
              CASE WHEN e.ip LIKE '10.%' THEN 'ZZ' ELSE ($COUNTRIES::text[])[1 + e.n % ${COUNTRIES.length}] END,
              CASE WHEN e.scope IN ('oidc', 'authcode') THEN 'app-' || (1 + e.n % 5) END,
              ($AGENTS::text[])[1 + e.ua],
              jsonb_build_object('action', CASE e.scope WHEN 'authcode' THEN CASE WHEN e.rx < 0.5 THEN 'code.issued' ELSE 'code.exchanged' END
                                                        WHEN 'console' THEN 'device.revoke'
                                                        WHEN 'reg-code' THEN 'reg_code.issued'
                                                        ELSE CASE e.status WHEN 'created' THEN 'device.register' ELSE 'sign_in' END END)
         FROM (SELECT b.*, s.scope, s.status,
                      s.status = 'failed' AND s.scope = 'oidc' AND b.rx < 0.3 AS anonymous,
                      ${ipSql('CASE WHEN b.ri < 0.7 THEN b.n::bigint * 2654435761 ELSE b.ipn END', '(CASE WHEN b.ri < 0.7 THEN b.n % 5 ELSE b.ipn % 5 END) = 0')} AS ip
                 FROM (SELECT g, $START::timestamptz + (g - 1 + random()) * ($SPAN::float8 / $N::int) * interval '1 millisecond' AS at,
                              md5(g::text || $PROJECT) AS h, floor($USERS * random() ^ 2)::int AS n,
                              floor(${USER_AGENTS.length} * random() ^ 2)::int AS ua, floor(random() * 3600000000)::bigint AS ipn,
                              random() AS rs, random() AS rr, random() AS rx, random() AS ri
                         FROM generate_series(1, $N::int) AS g) AS b
                 CROSS JOIN LATERAL (
                   SELECT sc AS scope,
                          CASE sc WHEN 'oidc' THEN CASE WHEN b.rr < 0.80 THEN 'success' WHEN b.rr < 0.88 THEN 'failed' WHEN b.rr < 0.94 THEN 'created'
                                                        WHEN b.rr < 0.97 THEN 'denied' WHEN b.rr < 0.99 THEN 'disabled' ELSE 'error' END
                                  WHEN 'authcode' THEN CASE WHEN b.rr < 0.97 THEN 'success' ELSE 'failed' END
                                  WHEN 'reg-code' THEN CASE WHEN b.rr < 0.85 THEN 'success' ELSE 'failed' END
                                  ELSE CASE WHEN b.rr < 0.99 THEN 'success' ELSE 'failed' END END AS status
                     FROM (SELECT CASE WHEN b.rs < 0.62 THEN 'oidc' WHEN b.rs < 0.92 THEN 'authcode' WHEN b.rs < 0.97 THEN 'reg-code' ELSE 'console' END AS sc) AS x
                 ) AS s) AS e`,
      {
        PROJECT: p.id,
        N: p.events,
        USERS: p.users,
        START: start,
        SPAN: now.getTime() - start.getTime(),
        NAMES: DEVICE_NAMES,
        CUSTOM: CUSTOM_NAMES,
        AGENTS: USER_AGENTS,
        COUNTRIES,
      },
    );
    say(
      `  ${p.id}: ${(p.allUsers + IDLE_USERS).toLocaleString('en')} users in ${users}, ${p.devices.toLocaleString('en')} devices in ${devices}, ${p.events.toLocaleString('en')} events in ${seconds(started)}`,
    );
  }
  say(`  rows loaded in ${seconds(loadStarted)}`);

  started = performance.now();
  for (const index of indexes) await direct.query(index.def.replace(' ON ONLY ', ' ON '));
  for (const f of foreign) await direct.query(`ALTER TABLE devices ADD CONSTRAINT ${f.name} ${f.def}`);
  say(`  rebuilt ${indexes.length} indexes and ${foreign.length} foreign key in ${seconds(started)}`);

  // Keycloak's admin events table: the same rows in one table, with only its time index. Unlogged:
  // it is read, never recovered, and the copy writes no WAL (reads are the same as a logged table's).
  started = performance.now();
  await direct.query(
    `CREATE UNLOGGED TABLE kc_events AS
       SELECT project_id, created_at, id, user_id, device_name, scope, event_status, ip, country, client_id, user_agent, details FROM audit_events`,
  );
  await direct.query('CREATE INDEX kc_events_time_idx ON kc_events (project_id, created_at)');
  say(`  kc_events (unpartitioned copy + (project_id, created_at) index) in ${seconds(started)}`);

  // What the provider counts in the rollups with each event (issue 10's dashboard reads them).
  await addUsageRollups(direct);

  // Autovacuum may be off or late; index-only scans need the visibility map, plans need statistics.
  started = performance.now();
  for (const table of ['audit_events', 'devices', 'project_users', 'kc_events']) await direct.query(`VACUUM (ANALYZE) ${table}`);
  say(`  vacuum analyze in ${seconds(started)}`);
  return { now, start };
}

interface Case {
  list: 'audit' | 'devices' | 'users';
  name: string;
  query: Record<string, string>;
  target: number;
  /** What the answer must be, as a check that the case measures what it says. */
  expect: 'empty' | 'capped' | 'exact' | 'rows' | 'any';
  /**
   * Also asked Keycloak's way; `slow`: one of the cases the ≥ 100× goal is about (Keycloak reads
   * more than its index's range: a filter or sort on another column, or 12 months);
   * `fast-month`: slow over 12 months only (this month, Keycloak's index answers the default).
   */
  kc?: 'slow' | 'fast' | 'fast-month';
  /** Send the cursor the page before answered (the console does when it moves to the next page). */
  cursor?: boolean;
}

/** A Db that notes every statement it runs (the repository's statements, to EXPLAIN or time alone). */
function recording(db: Db): { db: Db; seen: Array<{ sql: string; params: readonly unknown[] }> } {
  const seen: Array<{ sql: string; params: readonly unknown[] }> = [];
  return {
    seen,
    db: {
      query: (sql, params) => {
        seen.push({ sql, params: params ?? [] });
        return db.query(sql, params);
      },
      transaction: (fn) => db.transaction(fn),
      exec: (sql) => db.exec(sql),
      close: async () => {},
    },
  };
}

/** The statements the repository runs for a case's query, exactly as it runs them. */
async function statementsOf(db: Db, secretBox: SecretBox, c: Case, now: Date, cursor?: string) {
  const rec = recording(db);
  const raw = { ...c.query, ...(cursor ? { cursor } : {}) };
  if (c.list === 'audit') {
    const q = auditListQuerySchema.parse(raw);
    await auditTableFor(secretBox).page(rec.db, BIG, requireDateRange(q, now), q);
  } else if (c.list === 'users') {
    const q = endUserListQuerySchema.parse(raw);
    await endUsersTable.page(rec.db, BIG, requireDateRange(q, now, endUsersTable.range), q);
  } else {
    const q = deviceListQuerySchema.parse(raw);
    await devicesTable.page(rec.db, BIG, requireDateRange(q, now), q);
  }
  return rec.seen;
}

/** The Keycloak-shaped statements of an audit case: exact count(*), then the page by LIMIT/OFFSET, over kc_events. */
function keycloakSql(c: Case, now: Date): Array<{ sql: string; params: unknown[] }> {
  const q = auditListQuerySchema.parse(c.query);
  const range = requireDateRange(q, now);
  const params: unknown[] = [BIG, range.from, range.to];
  const where = ['project_id = $1', 'created_at >= $2', 'created_at < $3'];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('$?', `$${params.length}`));
  };
  // Events name a person by id (docs/decisions/0046), as Keycloak's name the user by id: the person's id of the identity.
  if (q.userId)
    add("user_id = coalesce((SELECT u.id FROM project_users u WHERE u.project_id = $1 AND u.identity_key = $?), '')", q.userId.toLowerCase());
  if (q.deviceName) add('lower(device_name) LIKE $?', `${q.deviceName.toLowerCase()}%`);
  if (q.scope) add('scope = $?', q.scope);
  if (q.result) add('event_status = $?', q.result);
  const column = { createdAt: null, userId: 'user_id', deviceName: 'lower(device_name)', scope: 'scope', result: 'event_status' }[q.sort];
  const dir = q.direction === 'desc' ? 'DESC' : 'ASC';
  const order = column ? `${column} ${dir}, created_at ${dir}` : `created_at ${dir}`;
  return [
    { sql: `SELECT count(*) FROM kc_events WHERE ${where.join(' AND ')}`, params },
    { sql: `SELECT * FROM kc_events WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${q.limit} OFFSET ${q.offset}`, params },
  ];
}

async function main(): Promise<void> {
  const benchStarted = performance.now();
  const scratch = await createScratchPostgres(SERVER_URL, 'latchkey_bench');
  const { db, name: dbName } = scratch;
  say(`Lists bench: ${dbName} on ${new URL(scratch.url).host}, ${EVENTS.toLocaleString('en')} events / ${DEVICES.toLocaleString('en')} devices`);
  let closeApp: (() => Promise<void>) | null = null;
  const direct = new pg.Client({ connectionString: scratch.url });
  await direct.connect();

  try {
    await migrate(db);
    await direct.query(`SET maintenance_work_mem = '512MB'`);
    await direct.query(`SET synchronous_commit = off`);
    await direct.query(`SET work_mem = '64MB'`);
    const loadStarted = performance.now();
    const { now } = await load(direct, db);
    const loadMs = performance.now() - loadStarted;
    say(`  load total ${seconds(loadStarted)}`);
    figure(
      `lists bench load (${(EVENTS + OTHER.events).toLocaleString('en')} events, ${(DEVICES + OTHER.devices).toLocaleString('en')} devices, indexes, copy, analyze)`,
      loadMs / 1000,
      's',
    );

    const built = await benchApp(db);
    closeApp = () => built.app.close();
    const account = await insertAccount(db, { id: randomUUID(), email: 'bench@example.test', createdAt: new Date() });
    await grantPermissions(db, account.id, [`cst:${BIG}:audit`, `cst:${BIG}:revocation`, `cst:${BIG}:usage`, 'glb::usage']);
    const session = await built.services.sessions.createSession(account.id, null);
    const cookie = `${SESSION_COOKIE}=${session.sessionId}`;

    const { rows: counts } = await db.query<{ events: string; devices: string }>(
      `SELECT (SELECT count(*) FROM audit_events WHERE project_id = $1 AND created_at >= $2) AS events,
              (SELECT count(*) FROM devices WHERE project_id = $1 AND created_at >= $2) AS devices`,
      [BIG, monthStart(now)],
    );
    say(
      `  this month (the default range): ${Number(counts[0]?.events).toLocaleString('en')} events, ${Number(counts[0]?.devices).toLocaleString('en')} devices`,
    );

    // 12 months: the last 365 days, as the console sends them (spec §7: T00:00:00Z … T23:59:59Z).
    const year = {
      fromDate: `${new Date(now.getTime() - 364 * DAY_MS).toISOString().slice(0, 10)}T00:00:00Z`,
      toDate: `${now.toISOString().slice(0, 10)}T23:59:59Z`,
    };
    const heavy = identityOf(0); // rank 0: ~0.2 % of the events, ~290 devices
    const typical = identityOf(USERS / 10); // ~80 events a year
    const typicalOwner = identityOf(USERS / 1000); // ~30 devices a year
    const idle = identityOf(ALL_USERS + 1); // registered, never signed in

    const cases: Case[] = [];
    const both = (c: Case) => {
      const kc = (k: Case['kc']) => (k === undefined ? {} : { kc: k });
      cases.push({ ...c, name: `${c.name}, this month`, ...kc(c.kc === 'fast-month' ? 'fast' : c.kc) });
      cases.push({ ...c, name: `${c.name}, 12 months`, query: { ...c.query, ...year }, ...kc(c.kc === 'fast-month' ? 'slow' : c.kc) });
    };
    // Audit: each sort, no filter.
    both({ list: 'audit', name: 'sort date desc (default)', query: {}, target: FIRST_PAGE_MS, expect: 'capped', kc: 'fast-month' });
    both({ list: 'audit', name: 'sort date asc', query: { direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({
      list: 'audit',
      name: 'sort userId asc',
      query: { sort: 'userId', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'capped',
      kc: 'slow',
    });
    both({ list: 'audit', name: 'sort deviceName desc', query: { sort: 'deviceName', direction: 'desc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'audit', name: 'sort scope asc', query: { sort: 'scope', direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'audit', name: 'sort result desc', query: { sort: 'result', direction: 'desc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    // Audit: each filter, default sort; then filters sorted by another column.
    both({ list: 'audit', name: 'userId busiest user', query: { userId: heavy }, target: FIRST_PAGE_MS, expect: 'rows', kc: 'slow' });
    both({ list: 'audit', name: 'userId typical user', query: { userId: typical }, target: FIRST_PAGE_MS, expect: 'exact', kc: 'slow' });
    both({ list: 'audit', name: "deviceName 'chrome'", query: { deviceName: 'chrome' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'audit', name: "deviceName 'opera'", query: { deviceName: 'opera' }, target: FIRST_PAGE_MS, expect: 'rows' });
    both({ list: 'audit', name: "deviceName 'titan' (rare)", query: { deviceName: 'titan' }, target: FIRST_PAGE_MS, expect: 'rows' });
    both({ list: 'audit', name: 'scope authcode', query: { scope: 'authcode' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'audit', name: 'scope console', query: { scope: 'console' }, target: FIRST_PAGE_MS, expect: 'capped', kc: 'slow' });
    both({ list: 'audit', name: 'result failed', query: { result: 'failed' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'audit', name: 'result error', query: { result: 'error' }, target: FIRST_PAGE_MS, expect: 'rows', kc: 'slow' });
    both({
      list: 'audit',
      name: 'result denied, sort userId',
      query: { result: 'denied', sort: 'userId', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'rows',
    });
    both({
      list: 'audit',
      name: 'result error, sort deviceName',
      query: { result: 'error', sort: 'deviceName', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'rows',
    });
    both({
      list: 'audit',
      name: 'busiest user, sort result',
      query: { userId: heavy, sort: 'result', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'rows',
    });
    both({ list: 'audit', name: 'busiest user + result failed', query: { userId: heavy, result: 'failed' }, target: FIRST_PAGE_MS, expect: 'exact' });
    // Audit: empty answers.
    both({ list: 'audit', name: 'empty: user with no events', query: { userId: idle }, target: EMPTY_MS, expect: 'empty', kc: 'slow' });
    both({ list: 'audit', name: 'empty: unknown user', query: { userId: 'nobody@example.invalid' }, target: EMPTY_MS, expect: 'empty' });
    both({ list: 'audit', name: "empty: deviceName 'zzz'", query: { deviceName: 'zzz' }, target: EMPTY_MS, expect: 'empty', kc: 'slow' });
    both({
      list: 'audit',
      name: 'empty: scope console + result created',
      query: { scope: 'console', result: 'created' },
      target: EMPTY_MS,
      expect: 'empty',
      kc: 'slow',
    });
    // Audit: page 1,000 at 10 a page (offset 9,990), by offset alone and with the cursor of page 999.
    both({ list: 'audit', name: 'page 1,000', query: { offset: '9990' }, target: DEEP_PAGE_MS, expect: 'capped', kc: 'fast-month' });
    both({
      list: 'audit',
      name: 'page 1,000 with cursor',
      query: { offset: '9990' },
      target: DEEP_PAGE_MS,
      expect: 'capped',
      cursor: true,
      kc: 'fast-month',
    });
    both({
      list: 'audit',
      name: 'page 1,000 sort userId',
      query: { offset: '9990', sort: 'userId', direction: 'asc' },
      target: DEEP_PAGE_MS,
      expect: 'capped',
      kc: 'slow',
    });
    both({ list: 'audit', name: 'page 1,000 scope authcode', query: { offset: '9990', scope: 'authcode' }, target: DEEP_PAGE_MS, expect: 'capped' });

    // Devices: each sort, each filter, filters sorted by another column, empty answers, page 1,000.
    both({ list: 'devices', name: 'sort date desc (default)', query: {}, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: 'sort date asc', query: { direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: 'sort userId asc', query: { sort: 'userId', direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({
      list: 'devices',
      name: 'sort deviceName desc',
      query: { sort: 'deviceName', direction: 'desc' },
      target: FIRST_PAGE_MS,
      expect: 'capped',
    });
    both({ list: 'devices', name: 'sort ip asc', query: { sort: 'ip', direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: 'sort revoked desc', query: { sort: 'revoked', direction: 'desc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: 'userId busiest user', query: { userId: heavy }, target: FIRST_PAGE_MS, expect: 'rows' });
    both({ list: 'devices', name: 'userId typical user', query: { userId: typicalOwner }, target: FIRST_PAGE_MS, expect: 'any' });
    both({ list: 'devices', name: "deviceName 'safari on'", query: { deviceName: 'safari on' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: "deviceName 'opera'", query: { deviceName: 'opera' }, target: FIRST_PAGE_MS, expect: 'rows' });
    both({ list: 'devices', name: "deviceName 'titan' (rare)", query: { deviceName: 'titan' }, target: FIRST_PAGE_MS, expect: 'any' });
    both({ list: 'devices', name: "ip '10.'", query: { ip: '10.' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: "ip '81.2'", query: { ip: '81.2' }, target: FIRST_PAGE_MS, expect: 'any' });
    both({ list: 'devices', name: 'revoked true', query: { revoked: 'true' }, target: FIRST_PAGE_MS, expect: 'rows' });
    both({ list: 'devices', name: 'revoked false', query: { revoked: 'false' }, target: FIRST_PAGE_MS, expect: 'capped' });
    both({
      list: 'devices',
      name: 'revoked true, sort userId',
      query: { revoked: 'true', sort: 'userId', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'rows',
    });
    both({
      list: 'devices',
      name: "ip '10.', sort deviceName",
      query: { ip: '10.', sort: 'deviceName', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'capped',
    });
    both({ list: 'devices', name: 'empty: user with no devices', query: { userId: idle }, target: EMPTY_MS, expect: 'empty' });
    both({ list: 'devices', name: "empty: deviceName 'zzz'", query: { deviceName: 'zzz' }, target: EMPTY_MS, expect: 'empty' });
    both({ list: 'devices', name: 'page 1,000', query: { offset: '9990' }, target: DEEP_PAGE_MS, expect: 'capped' });
    both({ list: 'devices', name: 'page 1,000 with cursor', query: { offset: '9990' }, target: DEEP_PAGE_MS, expect: 'capped', cursor: true });
    both({
      list: 'devices',
      name: 'page 1,000 sort ip',
      query: { offset: '9990', sort: 'ip', direction: 'asc' },
      target: DEEP_PAGE_MS,
      expect: 'capped',
    });

    // Users (issue 24): every user by default (no date range), each sort, each filter, page 1,000.
    const users = (c: Omit<Case, 'list'>) => cases.push({ list: 'users', ...c });
    users({ name: 'newest first (default)', query: {}, target: FIRST_PAGE_MS, expect: 'capped' });
    users({ name: 'sort identity asc', query: { sort: 'identity', direction: 'asc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    users({ name: 'sort last sign-in desc', query: { sort: 'lastSignInAt', direction: 'desc' }, target: FIRST_PAGE_MS, expect: 'capped' });
    users({ name: 'identity starting with a typical user', query: { identity: typical.slice(0, 6) }, target: FIRST_PAGE_MS, expect: 'rows' });
    users({ name: 'identity one user, any case', query: { identity: typical.toUpperCase() }, target: FIRST_PAGE_MS, expect: 'exact' });
    users({ name: 'status blocked', query: { status: 'blocked' }, target: FIRST_PAGE_MS, expect: 'capped' });
    users({
      name: 'status blocked, sort identity',
      query: { status: 'blocked', sort: 'identity', direction: 'asc' },
      target: FIRST_PAGE_MS,
      expect: 'capped',
    });
    users({
      name: 'status active, sort last sign-in',
      query: { status: 'active', sort: 'lastSignInAt', direction: 'desc' },
      target: FIRST_PAGE_MS,
      expect: 'capped',
    });
    users({ name: 'created in the last 12 months', query: year, target: FIRST_PAGE_MS, expect: 'capped' });
    users({ name: "empty: identity 'zzz'", query: { identity: 'zzz' }, target: EMPTY_MS, expect: 'empty' });
    users({ name: 'page 1,000', query: { offset: '9990' }, target: DEEP_PAGE_MS, expect: 'capped' });
    users({ name: 'page 1,000 with cursor', query: { offset: '9990' }, target: DEEP_PAGE_MS, expect: 'capped', cursor: true });

    const ours = new Map<string, Timing>();
    const measureStarted = performance.now();
    for (const c of cases) {
      const base = { audit: `/api/projects/${BIG}/audit`, devices: `/api/projects/${BIG}/mpinids`, users: `/api/projects/${BIG}/users` }[c.list];
      const call = async (query: Record<string, string>) => {
        const path = `${base}?${new URLSearchParams(query)}`;
        const res = await built.app.inject({ method: 'GET', url: path, headers: { cookie, host: BENCH_HOST } });
        if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}: ${res.body}`);
        return JSON.parse(res.body) as AuditList | DeviceList | EndUserList;
      };
      let query = c.query;
      let cursor: string | undefined;
      if (c.cursor) {
        // The page before, as the console reads it, gives the cursor for this one.
        const before = await call({ ...c.query, offset: String(Number(c.query.offset) - 10) });
        if (before.nextCursor) {
          cursor = before.nextCursor;
          query = { ...c.query, cursor };
        } else if (EVENTS === 10_000_000 && DEVICES === 1_000_000) throw new Error(`${c.name}: no nextCursor on the page before`);
        else say(`  note: ${c.list} ${c.name}: no nextCursor on the page before`);
      }
      const first = await call(query);
      const shape = first.list.length === 0 ? 'empty' : first.totalCapped ? 'capped' : first.total <= TOTAL_CAP ? 'exact' : 'rows';
      const fits = c.expect === 'any' || (c.expect === 'rows' ? first.list.length > 0 : c.expect === shape);
      if (!fits) {
        const problem = `${c.list} ${c.name}: answered ${shape} (total ${first.total}, ${first.list.length} rows), expected ${c.expect}`;
        // At the issue's scale a case that does not answer as planned measures something else.
        if (EVENTS === 10_000_000 && DEVICES === 1_000_000) throw new Error(problem);
        say(`  note: ${problem}`);
      }
      for (let i = 0; i < WARMUP; i += 1) await call(query);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const started = performance.now();
        await call(query);
        times.push(performance.now() - started);
      }
      const t = timing(times);
      ours.set(`${c.list} ${c.name}`, t);
      say(
        `  ${c.list} ${c.name}: total ${first.total}${first.totalCapped ? '+' : ''}, ${first.list.length} rows, p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms, max ${t.max.toFixed(1)} ms`,
      );
      figure(`${{ audit: 'audit log', devices: 'devices list', users: 'users list (1 M users)' }[c.list]} p95 (${c.name})`, t.p95, 'ms', c.target);
      if (PLANS === 'all' || (PLANS === 'misses' && t.p95 > c.target)) {
        const statements = await statementsOf(db, built.services.secretBox, c, now, cursor);
        for (const [i, s] of statements.entries()) await explain(db, i === 0 ? 'count' : 'page', s.sql, s.params);
      }
    }
    say(`  ${cases.length} cases × ${RUNS} calls in ${seconds(measureStarted)}`);

    // The total shown with the list, alone: the repository's capped count statement.
    const totals: Case[] = [
      { list: 'audit', name: 'no filter, 12 months', query: year, target: FIRST_PAGE_MS, expect: 'capped' },
      { list: 'audit', name: "deviceName 'chrome', 12 months", query: { ...year, deviceName: 'chrome' }, target: FIRST_PAGE_MS, expect: 'capped' },
      { list: 'audit', name: 'result error, this month', query: { result: 'error' }, target: FIRST_PAGE_MS, expect: 'exact' },
      { list: 'audit', name: 'busiest user, 12 months', query: { ...year, userId: heavy }, target: FIRST_PAGE_MS, expect: 'capped' },
      { list: 'devices', name: "ip '10.', 12 months", query: { ...year, ip: '10.' }, target: FIRST_PAGE_MS, expect: 'capped' },
      { list: 'devices', name: 'revoked true, 12 months', query: { ...year, revoked: 'true' }, target: FIRST_PAGE_MS, expect: 'capped' },
    ];
    for (const c of totals) {
      const [count] = await statementsOf(db, built.services.secretBox, c, now);
      if (!count) throw new Error('no count statement');
      const total = (await db.query<{ total: number }>(count.sql, count.params)).rows[0]?.total;
      for (let i = 0; i < WARMUP; i += 1) await db.query(count.sql, count.params);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const started = performance.now();
        await db.query(count.sql, count.params);
        times.push(performance.now() - started);
      }
      const t = timing(times);
      say(`  total of ${c.list} ${c.name}: ${total} counted, p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms`);
      figure(`${c.list === 'audit' ? 'audit log' : 'devices list'} capped total p95 (${c.name})`, t.p95, 'ms', c.target);
    }

    // Keycloak's way: exact count(*) and LIMIT/OFFSET over the unpartitioned copy.
    const kcStarted = performance.now();
    for (const c of cases.filter((k) => k.kc)) {
      const statements = keycloakSql(c, now);
      const ask = async () => {
        let total = 0;
        for (const [i, s] of statements.entries()) {
          const { rows } = await db.query<{ count: string }>(s.sql, s.params);
          if (i === 0) total = Number(rows[0]?.count);
        }
        return total;
      };
      // The first call warms up; one that takes over a second is counted (its table is already
      // cached). Then calls until KC_SECONDS have passed: a call of many seconds is asked once.
      const began = performance.now();
      const total = await ask();
      const firstMs = performance.now() - began;
      const times = firstMs > 1000 ? [firstMs] : [];
      while (times.length < RUNS && performance.now() - began < KC_SECONDS * 1000) {
        const started = performance.now();
        await ask();
        times.push(performance.now() - started);
      }
      const t = timing(times);
      const mine = ours.get(`${c.list} ${c.name}`) as Timing;
      const ratio = t.p50 / mine.p50;
      say(
        `  keycloak-shaped audit ${c.name}: exact total ${total.toLocaleString('en')}, p50 ${t.p50.toFixed(1)} ms, p95 ${t.p95.toFixed(1)} ms (${t.runs} run${t.runs === 1 ? '' : 's'}) — ours p50 ${mine.p50.toFixed(1)} ms: ${ratio.toFixed(0)}×`,
      );
      figure(`keycloak-shaped audit p50 (${c.name})`, t.p50, 'ms');
      figure(`audit log vs keycloak-shaped, p50 ratio (${c.name})`, ratio, '×', c.kc === 'slow' ? KC_RATIO : undefined, 'higher');
      if (PLANS === 'all')
        for (const [i, s] of statements.entries()) await explain(db, i === 0 ? 'keycloak count' : 'keycloak page', s.sql, s.params);
    }
    say(`  keycloak-shaped cases in ${seconds(kcStarted)}`);

    // Issue 10: the dashboard's questions from the rollups, beside the raw events' aggregation.
    await benchUsage({ app: built.app, db, cookie, project: BIG, now, runs: RUNS, warmup: WARMUP, rawSeconds: KC_SECONDS });
    // Issue 13: the search, on the same data and more projects.
    await benchSearch({
      app: built.app,
      db,
      direct,
      createSession: (accountId) => built.services.sessions.createSession(accountId, null),
      big: BIG,
      small: SMALL,
      busiest: heavy,
      runs: RUNS,
      warmup: WARMUP,
      plans: PLANS,
    });
    say(`  lists bench total ${seconds(benchStarted)}`);
  } finally {
    await direct.end();
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
  console.error('Lists bench failed:', error);
  process.exit(1);
});
