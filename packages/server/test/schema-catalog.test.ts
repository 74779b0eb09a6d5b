import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithDatabase } from './support/databases.ts';

/**
 * Issue 23, beyond one database: every table can be sharded by project by a distributed PostgreSQL
 * (Citus), read from the catalog of a database the migrations made. The map is docs/decisions/0037's:
 * a table is distributed by the column that holds its project (its issuer, for the issuers' own
 * tables, where the console's sign-in is the issuer 'console'), or is a small reference table that
 * every node holds. A new table that is in neither fails here until it is placed.
 */
const DISTRIBUTED: Record<string, string> = {
  projects: 'id',
  applications: 'project_id',
  application_keys: 'project_id',
  application_counts: 'project_id',
  audit_events: 'project_id',
  outbox_messages: 'project_id',
  webhook_endpoints: 'project_id',
  // The previous version's outboxes: this version drains them into outbox_messages, and reads the
  // webhooks' log from both; a later version drops them (docs/decisions/0045).
  backchannel_logouts: 'project_id',
  webhook_messages: 'project_id',
  devices: 'project_id',
  identity_verifications: 'project_id',
  project_users: 'project_id',
  registration_codes: 'project_id',
  // Account recovery (docs/decisions/0051).
  recovery_codes: 'project_id',
  email_recoveries: 'project_id',
  reenrollment_links: 'project_id',
  usage_daily: 'project_id',
  usage_daily_country: 'project_id',
  usage_hourly: 'project_id',
  // The passkey enrollment funnel's rollup (docs/decisions/0050).
  enrollment_daily: 'project_id',
  oidc_payloads: 'issuer',
  rate_limit_windows: 'issuer',
  login_codes: 'issuer',
  // Migration 0034's identities of no person, until the start-up pseudonymises them (docs/decisions/0046).
  event_identities_to_pseudonymise: 'project_id',
  // Erasures waiting for the scrub of the tables that held the person (docs/decisions/0046).
  erasure_scrubs: 'project_id',
  // Issue 37's imports (docs/decisions/0052).
  imported_passwords: 'project_id',
  user_imports: 'project_id',
  user_import_refusals: 'project_id',
  user_import_chunks: 'project_id',
};
const REFERENCE = [
  'accounts',
  'account_permissions',
  'console_passkeys',
  'service_account_tokens',
  'sessions',
  'server_keys',
  'project_hosts',
  'schema_migrations',
];
/** The previous version's, which this one no longer reads or writes: a later version drops them (migration 0029). */
const LEFT_FOR_THE_PREVIOUS_VERSION = ['rate_limits', 'idp_login_codes'];

interface Key {
  table: string;
  name: string;
  columns: string[];
}
interface ForeignKey extends Key {
  references: string;
  referencedColumns: string[];
}

describeWithDatabase('the schema, ready for a distributed PostgreSQL (docs/decisions/0037)', (t) => {
  const tables = async () =>
    (
      await t.db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
      )
    ).rows.map((r) => r.name);

  /** Primary keys and unique indexes (constraints or not), their columns in key order; an expression is '(expression)'. */
  const uniqueKeys = async (): Promise<Array<Key & { primary: boolean }>> =>
    (
      await t.db.query<Key & { primary: boolean }>(
        `SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary,
                array(SELECT coalesce(a.attname::text, '(expression)') FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
                        LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
           FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
           JOIN pg_namespace n ON n.oid = t.relnamespace
          WHERE n.nspname = 'public' AND x.indisunique ORDER BY 1, 2`,
      )
    ).rows;

  const foreignKeys = async (): Promise<ForeignKey[]> =>
    (
      await t.db.query<ForeignKey>(
        `SELECT t.relname AS table, c.conname AS name, r.relname AS references,
                array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
                        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns,
                array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, n)
                        JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.n) AS "referencedColumns"
           FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
          WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace ORDER BY 1, 2`,
      )
    ).rows;

  it('places every table: distributed by its project, a reference table, or the previous version’s', async () => {
    const placed = [...Object.keys(DISTRIBUTED), ...REFERENCE, ...LEFT_FOR_THE_PREVIOUS_VERSION].sort();
    expect(await tables()).toEqual(placed);
  });

  it('leads the primary key and every unique index of a distributed table with its project', async () => {
    const keys = await uniqueKeys();
    for (const table of Object.keys(DISTRIBUTED)) {
      expect(
        keys.filter((k) => k.table === table && k.primary),
        `${table} has a primary key`,
      ).toHaveLength(1);
    }
    const astray = keys.filter((k) => k.table in DISTRIBUTED && k.columns[0] !== DISTRIBUTED[k.table]);
    expect(astray).toEqual([]);
  });

  it('makes every foreign key between distributed tables join on the project, and none point from a reference table to one', async () => {
    const fks = await foreignKeys();
    expect(fks.length).toBeGreaterThan(5);
    const astray = fks.filter((fk) => {
      const from = DISTRIBUTED[fk.table];
      const to = DISTRIBUTED[fk.references];
      if (to === undefined) return false; // to a reference table: every node has it
      if (from === undefined) return true; // a reference table's row cannot point into one shard
      const at = fk.columns.indexOf(from);
      return at < 0 || fk.referencedColumns[at] !== to;
    });
    expect(astray).toEqual([]);
  });

  it('has no trigger, no sequence and no generated key', async () => {
    const { rows: triggers } = await t.db.query(
      `SELECT tgrelid::regclass::text AS table, tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`,
    );
    expect(triggers).toEqual([]);
    const { rows: sequences } = await t.db.query(
      `SELECT c.relname FROM pg_class c WHERE c.relkind = 'S' AND c.relnamespace = 'public'::regnamespace`,
    );
    expect(sequences).toEqual([]);
    const { rows: counters } = await t.db.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`,
    );
    expect(counters).toEqual([]);
  });

  it('no longer names the previous version’s tables anywhere in the server’s code', () => {
    const src = join(import.meta.dirname, '..', 'src');
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(50);
    const naming = files.filter((f) =>
      LEFT_FOR_THE_PREVIOUS_VERSION.some((name) => new RegExp(`\\b${name}\\b`).test(readFileSync(join(src, f), 'utf8'))),
    );
    expect(naming).toEqual([]);
  });
});
