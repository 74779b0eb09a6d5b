import pg from 'pg';
import type { Db } from './db.ts';

type Queryable = pg.Pool | pg.PoolClient;

function clientDb(client: pg.PoolClient): Db {
  const db: Db = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, [...params]);
      return { rows: result.rows as T[] };
    },
    transaction: (fn) => fn(db),
    async exec(sql) {
      await client.query(sql);
    },
    close: async () => {},
  };
  return db;
}

async function run<T>(target: Queryable, sql: string, params: readonly unknown[]): Promise<{ rows: T[] }> {
  const result = await target.query(sql, [...params]);
  return { rows: result.rows as T[] };
}

/** A PostgreSQL server through a `pg` pool (DATABASE_URL). */
export function openPostgres(connectionString: string): Db {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  return {
    query: <T>(sql: string, params: readonly unknown[] = []) => run<T>(pool, sql, params),
    async transaction(fn) {
      const client = await pool.connect();
      // A connection lost while checked out (the server restarted, an administrator ended it)
      // emits 'error' on its client, which the pool listens for only while the client is idle:
      // unheard, it would end the process. The query under way fails by itself; the broken client
      // is dropped from the pool at release, and the next transaction connects anew.
      let broken: Error | undefined;
      const lost = (error: Error) => {
        broken = error;
      };
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await fn(clientDb(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    close: () => pool.end(),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}
