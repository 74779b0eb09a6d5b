import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { createSecretBox } from '../src/crypto.ts';
import { isUniqueViolation } from '../src/db/db.ts';
import { dbAdapterFactory, oidcRefs } from '../src/oidc/payloads.repository.ts';
import { loadMigrations, migrate } from '../src/db/migrate.ts';
import { createTestDatabase, describeEachDatabase } from './support/databases.ts';

describeEachDatabase('database client and migrations', (t) => {
  it('applies each migration once and records it', async () => {
    expect(await migrate(t.db)).toEqual([]);
    const { rows } = await t.db.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((r) => r.version)).toEqual(loadMigrations().map((m) => m.version));
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
    const fresh = await createTestDatabase(driver);
    try {
      await fresh.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      await migrate(
        fresh.db,
        loadMigrations().filter((m) => m.version < '0021'),
      );
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
    const fresh = await createTestDatabase(driver);
    try {
      await fresh.db.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      await migrate(
        fresh.db,
        loadMigrations().filter((m) => m.version < '0023'),
      );
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
