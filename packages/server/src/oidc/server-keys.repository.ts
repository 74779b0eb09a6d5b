import type { JsonWebKey } from 'node:crypto';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';

interface Row {
  value: unknown;
  sealed: string | null;
}

const context = (name: string) => `server_keys:${name}`;

async function read(db: Db, name: string): Promise<Row | undefined> {
  const { rows } = await db.query<Row>('SELECT value, sealed FROM server_keys WHERE name = $1', [name]);
  return rows[0];
}

/**
 * A secret generated once per deployment and shared by every instance, stored sealed under the
 * master key. Two instances starting together may both generate one; the first insert wins and
 * both read that one back. A value written in plain text by an earlier version, or sealed under
 * the previous master key (SECRET_KEY_PREVIOUS), is sealed again under the current key here.
 */
export async function getOrCreateServerKey<T>(db: Db, box: SecretBox, name: string, create: () => T): Promise<T> {
  let row = await read(db, name);
  if (!row) {
    await db.query('INSERT INTO server_keys (name, sealed) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
      name,
      box.sealJson(create(), context(name)),
    ]);
    row = (await read(db, name)) as Row;
  }
  if (row.sealed === null) {
    const plain = row.value as T;
    await db.query('UPDATE server_keys SET sealed = $2, value = NULL WHERE name = $1 AND sealed IS NULL', [name, box.sealJson(plain, context(name))]);
    return plain;
  }
  let value: T;
  try {
    value = box.openJson<T>(row.sealed, context(name));
  } catch (cause) {
    throw new Error(
      `server key ${name} cannot be opened with this SECRET_KEY (or {DATA_DIR}/secret.key): restore the key it was sealed with, or set it as SECRET_KEY_PREVIOUS while rotating`,
      { cause },
    );
  }
  if (box.isStale(row.sealed)) {
    await db.query('UPDATE server_keys SET sealed = $3 WHERE name = $1 AND sealed = $2', [name, row.sealed, box.sealJson(value, context(name))]);
  }
  return value;
}

/** Whether a key of this name is stored (sealed or not). */
export async function hasServerKey(db: Db, name: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM server_keys WHERE name = $1', [name]);
  return rows.length > 0;
}

/** Seals and stores a signing key under `name` (the sealing context names the row, as getOrCreateServerKey's does). */
export async function storeSealedKey(db: Db, box: SecretBox, name: string, key: JsonWebKey, retireAt: Date | null): Promise<void> {
  await db.query(
    `INSERT INTO server_keys (name, value, sealed, created_at, retire_at) VALUES ($1, 'null'::jsonb, $2, now(), $3)
     ON CONFLICT (name) DO UPDATE SET sealed = EXCLUDED.sealed, value = EXCLUDED.value, created_at = EXCLUDED.created_at, retire_at = EXCLUDED.retire_at`,
    [name, box.sealJson(key, `server_keys:${name}`), retireAt],
  );
}

/** Inside the caller's transaction: the key's row locked until commit (two rotations follow one another). */
export async function lockServerKey(db: Db, name: string): Promise<void> {
  await db.query('SELECT 1 FROM server_keys WHERE name = $1 FOR UPDATE', [name]);
}

/**
 * The signing keys under `prefix` as of a build with `current`: it and RS256's key sign or stay
 * published (never retiring); the first build without another algorithm's key starts that key
 * retiring in `graceSeconds`. Answers the names of the keys still published beside `current`,
 * newest first (oidc/keys.ts, docs/decisions/0028).
 */
export async function keepSigning(db: Db, k: { prefix: string; current: string; rs256: string; graceSeconds: number }): Promise<string[]> {
  await db.query('UPDATE server_keys SET retire_at = NULL WHERE name = ANY($1) AND retire_at IS NOT NULL', [[k.current, k.rs256]]);
  await db.query(
    `UPDATE server_keys SET retire_at = now() + make_interval(secs => $3)
      WHERE left(name, length($1)) = $1 AND name <> $2 AND name <> $4 AND position(':' in substr(name, length($1) + 1)) = 0 AND retire_at IS NULL`,
    [k.prefix, k.current, k.graceSeconds, k.rs256],
  );
  const { rows } = await db.query<{ name: string }>(
    `SELECT name FROM server_keys WHERE left(name, length($1)) = $1 AND name <> $2 AND (retire_at > now() OR name = $3) ORDER BY created_at DESC`,
    [k.prefix, k.current, k.rs256],
  );
  return rows.map((row) => row.name);
}

/** The keys under `prefix` still published: `current` first, then the newest. */
export async function publishedKeyRows(
  db: Db,
  prefix: string,
  current: string,
): Promise<Array<{ name: string; created_at: Date; retire_at: Date | null }>> {
  const { rows } = await db.query<{ name: string; created_at: Date; retire_at: Date | null }>(
    `SELECT name, created_at, retire_at FROM server_keys
      WHERE left(name, length($1)) = $1 AND (name = $2 OR retire_at > now() OR retire_at IS NULL)
      ORDER BY name = $2 DESC, created_at DESC`,
    [prefix, current],
  );
  return rows;
}

/** Forgets the keys named like `pattern` (LIKE) whose grace has passed. */
export async function deleteRetiredKeys(db: Db, pattern: string): Promise<void> {
  await db.query(`DELETE FROM server_keys WHERE retire_at <= now() AND name LIKE $1`, [pattern]);
}
