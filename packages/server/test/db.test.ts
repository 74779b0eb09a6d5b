import { expect, it } from 'vitest';
import { isUniqueViolation } from '../src/db/db.ts';
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
