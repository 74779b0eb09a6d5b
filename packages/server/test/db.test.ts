import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto.ts';
import { isUniqueViolation, prepared, preparedName } from '../src/db/db.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { dbAdapterFactory, oidcRefs } from '../src/oidc/payloads.repository.ts';
import { checksumOf, loadMigrations, migrate, MigrationChangedError } from '../src/db/migrate.ts';
import { createDatabaseBefore, createTestDatabase, createTestPostgres, describeEachDatabase, TEST_POSTGRES_URL } from './support/databases.ts';

describeEachDatabase('database client and migrations', (t) => {
  it('applies each migration once and records it', async () => {
    expect(await migrate(t.db)).toEqual([]);
    const { rows } = await t.db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
  });

  const recorded = async () =>
    (await t.db.query<{ version: string; checksum: string | null }>('SELECT version, checksum FROM schema_migrations ORDER BY version')).rows;
  const files = () => loadMigrations().map((m) => ({ version: m.version, checksum: checksumOf(m.sql) }));

  it('records each applied migration with the sha256 of its file', async () => {
    expect(await recorded()).toEqual(files());
    expect(files().find((m) => m.version === '0001_init')?.checksum).toMatch(/^[0-9a-f]{64}$/);
  });

  it("upgrades a previous version's schema_migrations (no checksums): each applied migration takes its file's checksum", async () => {
    await t.db.exec('ALTER TABLE schema_migrations DROP COLUMN checksum');
    expect(await migrate(t.db)).toEqual([]);
    expect(await recorded()).toEqual(files());
  });

  it('refuses a migration changed after it was applied: names it and both checksums, says what to do, applies nothing', async () => {
    const landed = loadMigrations();
    const edited = landed.map((m) =>
      m.version === '0030_end_users' ? { ...m, sql: `${m.sql}\nCREATE INDEX late_idx ON project_users (email);\n` } : m,
    );
    const pending = { version: '9999_pending', sql: 'CREATE TABLE pending_after_the_edit (id text)' };
    const before = await recorded();

    const error = await migrate(t.db, [...edited, pending]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationChangedError);
    const appliedWith = before.find((r) => r.version === '0030_end_users')?.checksum ?? '';
    const fileHas = checksumOf(edited.find((m) => m.version === '0030_end_users')?.sql ?? '');
    expect(appliedWith).toMatch(/^[0-9a-f]{64}$/);
    expect(fileHas).not.toBe(appliedWith);
    expect((error as MigrationChangedError).changed).toEqual([{ version: '0030_end_users', applied: appliedWith, file: fileHas }]);
    expect((error as Error).message).toBe(
      `Migration 0030_end_users changed after this database applied it (the database recorded sha256 ${appliedWith}, ` +
        `the file 0030_end_users.sql has sha256 ${fileHas}). No migration was applied. Restore the file as it landed ` +
        '(git log --follow -p -- packages/server/src/db/migrations/0030_end_users.sql) and put the change in a new migration (docs/decisions/0041).',
    );

    // Nothing moved: neither the pending migration nor the recorded checksum.
    expect(await recorded()).toEqual(before);
    const { rows } = await t.db.query("SELECT 1 FROM pg_class WHERE relname IN ('pending_after_the_edit', 'late_idx')");
    expect(rows).toEqual([]);
    // The file as it landed starts again.
    expect(await migrate(t.db, landed)).toEqual([]);
  });

  it("judges only the migrations this code knows (a newer version's, during a rollover, are not its to judge)", async () => {
    await t.db.query("INSERT INTO schema_migrations (version, checksum) VALUES ('9999_from_a_newer_version', 'abc')");
    try {
      expect(await migrate(t.db)).toEqual([]);
    } finally {
      await t.db.query("DELETE FROM schema_migrations WHERE version = '9999_from_a_newer_version'");
    }
  });

  it('migration 0032 gives a database that ran 0014, 0018, 0027 and 0030 as they landed the schema a new database gets', async () => {
    const catalog = async (db: typeof t.db) => ({
      columns: (
        await db.query(
          `SELECT table_name, column_name, data_type, is_nullable, column_default, collation_name FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY 1, 2`,
        )
      ).rows,
      indexes: (await db.query(`SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1, 2`)).rows,
      triggers: (
        await db.query(
          `SELECT tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace`,
        )
      ).rows,
      functions: (await db.query(`SELECT proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`)).rows,
    });
    const landed = await createTestDatabase(t.driver);
    try {
      // What each of those four files did as it landed, before the edits that a database at it never got.
      await landed.db.exec(`
        DELETE FROM schema_migrations WHERE version = '0032_repair_edited_migrations';
        DROP INDEX project_users_status_identity_idx, project_users_status_last_sign_in_idx, project_users_id_idx, project_users_identity_any_idx;
        ALTER TABLE accounts DROP COLUMN version;
        CREATE FUNCTION devices_user_key() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          SELECT coalesce(u.email, u.username) INTO NEW.user_key
            FROM project_users u WHERE u.project_id = NEW.project_id AND u.id = NEW.user_id;
          RETURN NEW;
        END $$;
        CREATE TRIGGER devices_user_key BEFORE INSERT OR UPDATE OF user_id ON devices
          FOR EACH ROW EXECUTE FUNCTION devices_user_key();
        ALTER TABLE backchannel_logouts DROP COLUMN jti;`);
      const fresh = await catalog(t.db);
      expect(await catalog(landed.db)).not.toEqual(fresh);

      expect(await migrate(landed.db)).toEqual(['0032_repair_edited_migrations']);
      expect(await catalog(landed.db)).toEqual(fresh);
    } finally {
      await landed.drop();
    }
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await t.db.transaction(async (tx) => {
      await tx.query("INSERT INTO server_keys (name, value) VALUES ('test.commit', '1'::jsonb)");
    });
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query("INSERT INTO server_keys (name, value) VALUES ('test.rollback', '1'::jsonb)");
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const { rows } = await t.db.query<{ name: string }>("SELECT name FROM server_keys WHERE name LIKE 'test.%' ORDER BY name");
    expect(rows).toEqual([{ name: 'test.commit' }]);
  });

  it('reports unique violations the same way on both drivers', async () => {
    const error = await t.db.query("INSERT INTO server_keys (name, value) VALUES ('test.commit', '2'::jsonb)").catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('round-trips jsonb, timestamptz and booleans', async () => {
    const at = new Date('2030-01-02T03:04:05.678Z');
    const { rows } = await t.db.query<{ j: unknown; d: Date; b: boolean }>('SELECT $1::jsonb AS j, $2::timestamptz AS d, $3::boolean AS b', [
      JSON.stringify({ a: [1, 'x'], 'b"c': null }),
      at,
      true,
    ]);
    expect(rows[0]).toEqual({ j: { a: [1, 'x'], 'b"c': null }, d: at, b: true });
  });
});

it('lets two instances migrate the same fresh PostgreSQL database at once; each script runs once', async () => {
  const fresh = await createTestDatabase('postgres');
  try {
    // createTestDatabase migrated once already; start over on a clean schema to race two migrators.
    await fresh.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    const [a, b] = await Promise.all([migrate(fresh.db), migrate(fresh.db)]);
    expect([...a, ...b].sort()).toEqual(loadMigrations().map((m) => m.version));
  } finally {
    await fresh.drop();
  }
});

it.each(['postgres', 'pglite'] as const)(
  "migration 0021 carries a project issuer's live artefacts into the one payload table, and ends the console provider's (%s)",
  async (driver) => {
    const fresh = await createDatabaseBefore(driver, '0021');
    try {
      const box = createSecretBox(randomBytes(32));
      const refs = oidcRefs(box);
      await fresh.db.query(`INSERT INTO projects (id, name, email, settings) VALUES ('p0000000000000001', 'Carried', 'a@example.test', '{}'::jsonb)`);
      const sessionRef = refs.id('Session', 'session-1');
      const session = { accountId: 'user-1', exp: Math.floor(Date.now() / 1000) + 3600 };
      await fresh.db.query(
        `INSERT INTO project_oidc_payloads (project_id, kind, id, payload, account_ref, expires_at) VALUES ($1, 'Session', $2, $3, $4, now() + interval '1 hour')`,
        [
          'p0000000000000001',
          sessionRef,
          box.sealJson(session, `project_oidc_payloads:p0000000000000001:Session:${sessionRef}`),
          refs.account('user-1'),
        ],
      );
      await fresh.db.query(
        `INSERT INTO oidc_payloads (kind, id, payload, expires_at) VALUES ('Session', 'console-row', 'sealed', now() + interval '1 hour')`,
      );
      await fresh.db.query(`INSERT INTO server_keys (name, sealed) VALUES ('idp.jwks', 'sealed'), ('idp.console_client_secret', 'sealed')`);

      expect(await migrate(fresh.db)).toContain('0021_one_openid_kernel');
      // The project's session opens as before, through the one adapter, under its issuer's key.
      expect(await dbAdapterFactory(fresh.db, box, { issuer: 'p0000000000000001' })('Session').find('session-1')).toEqual(session);
      const { rows } = await fresh.db.query<{ issuer: string }>('SELECT issuer FROM oidc_payloads ORDER BY issuer');
      expect(rows).toEqual([{ issuer: 'p0000000000000001' }]);
      const keys = await fresh.db.query<{ name: string }>("SELECT name FROM server_keys WHERE name LIKE 'idp.%' ORDER BY name");
      expect(keys.rows).toEqual([{ name: 'idp.console_client_secret' }]);
    } finally {
      await fresh.drop();
    }
  },
);

it.each(['postgres', 'pglite'] as const)(
  'migration 0023 gives each application the type the issuer read it as, and keeps PKCE required in every project made before (%s)',
  async (driver) => {
    const fresh = await createDatabaseBefore(driver, '0023');
    try {
      await fresh.db.query(
        `INSERT INTO projects (id, name, email, settings, issuer) VALUES
           ('pstrict000000001', 'Strict', 'a@example.test', '{}'::jsonb, NULL),
           ('ppublic000000001', 'Public', 'a@example.test', '{}'::jsonb, '{"allow_pkce_only_token_exchange": true, "id_token_signing_alg": "ES256"}'::jsonb)`,
      );
      const apps: Array<[string, string, string[] | null]> = [
        ['scheme', 'pstrict000000001', ['com.example.app:/cb', 'https://app.example/cb']],
        ['loopback', 'pstrict000000001', ['http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'http://localhost/cb']],
        ['webdev', 'pstrict000000001', ['https://shop.example/cb', 'http://localhost:3000/cb']],
        ['nokeys', 'pstrict000000001', null],
        ['browser', 'ppublic000000001', ['https://spa.example/']],
        ['cli', 'ppublic000000001', ['http://localhost:8765/cb']],
      ];
      for (const [id, project, uris] of apps) {
        await fresh.db.query(`INSERT INTO applications (id, project_id, name, created_at, updated_at) VALUES ($1, $2, $1, now(), now())`, [
          id,
          project,
        ]);
        if (uris) {
          await fresh.db.query(
            `INSERT INTO application_keys (application_id, client_id, client_secret_hash, redirect_uris, created_at) VALUES ($1, $1, 'x', $2, now())`,
            [id, uris],
          );
        }
      }

      expect(await migrate(fresh.db)).toContain('0023_application_types');
      const { rows } = await fresh.db.query<{ id: string; application_type: string }>('SELECT id, application_type FROM applications ORDER BY id');
      expect(Object.fromEntries(rows.map((r) => [r.id, r.application_type]))).toEqual({
        scheme: 'native',
        loopback: 'native',
        webdev: 'web',
        nokeys: 'web',
        browser: 'spa',
        cli: 'native',
      });
      const { rows: projects } = await fresh.db.query<{ id: string; issuer: Record<string, unknown> }>('SELECT id, issuer FROM projects ORDER BY id');
      expect(projects).toEqual([
        {
          id: 'ppublic000000001',
          issuer: { allow_pkce_only_token_exchange: true, id_token_signing_alg: 'ES256', require_pkce_for_confidential_clients: true },
        },
        { id: 'pstrict000000001', issuer: { require_pkce_for_confidential_clients: true } },
      ]);
    } finally {
      await fresh.drop();
    }
  },
);

it.each(['postgres', 'pglite'] as const)(
  "migration 0035 keeps every project's issuer where it was, and gives the passkeys of a custom-domain project that domain's host as their rpID (%s)",
  async (driver) => {
    const fresh = await createDatabaseBefore(driver, '0035');
    try {
      await fresh.db.query(
        `INSERT INTO projects (id, name, email, settings) VALUES
           ('pshared000000001', 'Shared', 'a@example.test', '{}'::jsonb),
           ('pcustom000000001', 'Custom', 'a@example.test', '{"customDomain": "https://login.acme.test:8443"}'::jsonb)`,
      );
      await fresh.db.query(
        `INSERT INTO project_hosts (host, project_id, origin) VALUES ('login.acme.test:8443', 'pcustom000000001', 'https://login.acme.test:8443')`,
      );
      for (const project of ['pshared000000001', 'pcustom000000001']) {
        await fresh.db.query(`INSERT INTO project_users (project_id, id, email, created_at) VALUES ($1, 'u1', 'u@example.test', now())`, [project]);
        await fresh.db.query(
          `INSERT INTO devices (project_id, id, user_id, public_key, name, created_at) VALUES ($1, 'cred-1', 'u1', 'AQID', 'Chrome', now())`,
          [project],
        );
      }
      expect(await migrate(fresh.db)).toContain('0035_a_relying_party_per_project');
      const devices = await fresh.db.query<{ project_id: string; rp_id: string | null }>('SELECT project_id, rp_id FROM devices ORDER BY project_id');
      expect(devices.rows).toEqual([
        { project_id: 'pcustom000000001', rp_id: 'login.acme.test' },
        { project_id: 'pshared000000001', rp_id: null },
      ]);
      // No project has an own host: every issuer stays at /p/{project} or its custom domain.
      const hosts = await fresh.db.query<{ host: string; own: boolean }>('SELECT host, own FROM project_hosts');
      expect(hosts.rows).toEqual([{ host: 'login.acme.test:8443', own: false }]);
      // One own host per project; an own host names its origin.
      await fresh.db.query(
        `INSERT INTO project_hosts (host, project_id, origin, own) VALUES ('pshared000000001.id.test', 'pshared000000001', 'https://pshared000000001.id.test', true)`,
      );
      await expect(
        fresh.db.query(
          `INSERT INTO project_hosts (host, project_id, origin, own) VALUES ('other.id.test', 'pshared000000001', 'https://other.id.test', true)`,
        ),
      ).rejects.toThrow();
      await expect(
        fresh.db.query(`INSERT INTO project_hosts (host, project_id, origin, own) VALUES ('x.id.test', 'pcustom000000001', NULL, true)`),
      ).rejects.toThrow();
    } finally {
      await fresh.drop();
    }
  },
);

describe('prepared statements on PostgreSQL (issue 38, docs/decisions/0055)', () => {
  it('sends a marked text as a named statement, prepared once per connection; an unmarked one unnamed; none with them off', async () => {
    const scratch = await createTestPostgres();
    // Straight to the server (under test:pgbouncer too: this is about the driver, not the pooler).
    const direct = new URL(TEST_POSTGRES_URL);
    direct.pathname = new URL(scratch.url).pathname;
    const on = openPostgres(direct.href);
    const off = openPostgres(direct.href, { preparedStatements: false });
    const marked = prepared('SELECT $1::int + 1 AS n -- db.test: marked');
    const preparedOn = (db: typeof on) =>
      db.transaction(async (tx) => {
        expect((await tx.query<{ n: number }>(marked, [1])).rows).toEqual([{ n: 2 }]);
        expect((await tx.query<{ n: number }>(marked, [41])).rows).toEqual([{ n: 42 }]);
        expect((await tx.query<{ n: number }>('SELECT $1::int AS n -- db.test: unmarked', [7])).rows).toEqual([{ n: 7 }]);
        return (await tx.query<{ name: string; statement: string }>('SELECT name, statement FROM pg_prepared_statements')).rows;
      });
    try {
      expect(preparedName(marked)).toMatch(/^lk_[0-9a-f]{24}$/);
      expect(await preparedOn(on)).toEqual([{ name: preparedName(marked), statement: marked }]);
      expect(await preparedOn(off)).toEqual([]);
    } finally {
      await on.close();
      await off.close();
      await scratch.drop();
    }
  });
});
