import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APPEND_COMMAND, appendUnlisted, compareToManifest, MANIFEST_FILE, parseManifest } from '../src/db/migration-manifest.ts';
import { checksumOf, loadMigrations, MigrationChangedError, MIGRATIONS_DIR } from '../src/db/migrate.ts';

/**
 * Issue 35 (docs/decisions/0041): a landed migration is never edited. The committed manifest pins
 * each one's checksum; a database that applied it refuses to start on an edited file (db.test.ts),
 * and this fails first, in the change that edits it.
 */
describe('the landed migrations, against their committed checksums', () => {
  const migrations = loadMigrations();
  const difference = compareToManifest(migrations, parseManifest(readFileSync(MANIFEST_FILE, 'utf8')));

  it('has not edited or removed a landed migration', () => {
    const edited = difference.edited.map((e) => `${e.file} (landed sha256 ${e.landed}, now ${e.now})`);
    expect(
      edited,
      `Edited after landing: restore each file as it landed (git log --follow -p -- packages/server/src/db/migrations/<file>) and put the change in a new migration`,
    ).toEqual([]);
    expect(difference.removed, 'Landed migrations are gone (removed or renamed): restore them under their names').toEqual([]);
  });

  it('lists every migration', () => {
    expect(
      difference.unlisted,
      `New migrations not in ${basename(MANIFEST_FILE)} yet: run \`${APPEND_COMMAND}\` (it appends their lines and changes no other)`,
    ).toEqual([]);
  });

  it('loads only the migration scripts from their folder, never the manifest beside them', () => {
    expect(readdirSync(MIGRATIONS_DIR)).toContain(basename(MANIFEST_FILE));
    expect(migrations.map((m) => `${m.version}.sql`)).toEqual(
      readdirSync(MIGRATIONS_DIR)
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );
  });
});

describe('the manifest', () => {
  const a = { version: '0001_a', sql: 'CREATE TABLE a (id text);\n' };
  const b = { version: '0002_b', sql: 'CREATE TABLE b (id text);\n' };
  const line = (m: { version: string; sql: string }) => `${checksumOf(m.sql)}  ${m.version}.sql\n`;

  it('is in sha256sum’s format', () => {
    expect(checksumOf('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(parseManifest(line(a))).toEqual(new Map([['0001_a.sql', checksumOf(a.sql)]]));
    expect(() => parseManifest(`${line(a)}not a line\n`)).toThrow(/:2: not/);
    expect(() => parseManifest(line(a) + line(a))).toThrow(/listed twice/);
  });

  it('tells an edited, a removed and an unlisted migration apart', () => {
    const manifest = parseManifest(line(a) + line(b));
    const editedA = { ...a, sql: `${a.sql}CREATE INDEX a_idx ON a (id);\n` };
    const c = { version: '0003_c', sql: 'SELECT 1;\n' };
    expect(compareToManifest([editedA, c], manifest)).toEqual({
      edited: [{ file: '0001_a.sql', landed: checksumOf(a.sql), now: checksumOf(editedA.sql) }],
      unlisted: ['0003_c.sql'],
      removed: ['0002_b.sql'],
    });
    expect(compareToManifest([a, b], manifest)).toEqual({ edited: [], unlisted: [], removed: [] });
  });

  it('is only appended to: new files get a line, an existing line stays as it is even when its file was edited', () => {
    const landed = line(a);
    const editedA = { ...a, sql: 'DROP TABLE a;\n' };
    const { text, added } = appendUnlisted(landed, [editedA, b]);
    expect(added).toEqual(['0002_b.sql']);
    expect(text).toBe(landed + line(b));
    expect(appendUnlisted(text, [editedA, b])).toEqual({ text, added: [] });
    expect(appendUnlisted(landed.trimEnd(), [a, b]).text).toBe(landed + line(b));
  });
});

it('names every changed migration and both of its checksums when a database differs from more than one file', () => {
  const error = new MigrationChangedError([
    { version: '0014_a', applied: '1'.repeat(64), file: '2'.repeat(64) },
    { version: '0030_b', applied: '3'.repeat(64), file: '4'.repeat(64) },
  ]);
  expect(error.message).toBe(
    `Migrations 0014_a, 0030_b changed after this database applied them (0014_a: the database recorded sha256 ${'1'.repeat(64)}, ` +
      `the file 0014_a.sql has sha256 ${'2'.repeat(64)}; 0030_b: the database recorded sha256 ${'3'.repeat(64)}, the file 0030_b.sql ` +
      `has sha256 ${'4'.repeat(64)}). No migration was applied. Restore each file as it landed ` +
      '(git log --follow -p -- packages/server/src/db/migrations/<version>.sql) and put the change in a new migration (docs/decisions/0041).',
  );
});
