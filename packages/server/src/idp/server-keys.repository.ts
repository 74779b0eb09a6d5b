import type { Db } from '../db/db.ts';

/**
 * A secret generated once per deployment and shared by every instance. Two instances starting
 * together may both generate one; the first insert wins and both read that one back.
 */
export async function getOrCreateServerKey<T>(db: Db, name: string, create: () => T): Promise<T> {
  const found = await db.query<{ value: T }>('SELECT value FROM server_keys WHERE name = $1', [name]);
  if (found.rows[0]) return found.rows[0].value;
  await db.query('INSERT INTO server_keys (name, value) VALUES ($1, $2::jsonb) ON CONFLICT (name) DO NOTHING', [
    name,
    JSON.stringify(create()),
  ]);
  const { rows } = await db.query<{ value: T }>('SELECT value FROM server_keys WHERE name = $1', [name]);
  return (rows[0] as { value: T }).value;
}
