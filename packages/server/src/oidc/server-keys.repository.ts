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
