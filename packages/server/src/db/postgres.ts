import pg from 'pg';
import { preparedName, type Db } from './db.ts';

type Queryable = pg.Pool | pg.PoolClient;

export interface PostgresOptions {
  /**
   * Statements marked `prepared` (db.ts) go as named statements, prepared once per connection
   * (default true). False behind PgBouncer before 1.21 in transaction pooling mode, which cannot
   * carry them from one server connection to another (DATABASE_PREPARED_STATEMENTS=off).
   */
  preparedStatements?: boolean;
}

/** The query as `pg` takes it: named when its text is marked and named statements are on. */
function queryOf(sql: string, params: readonly unknown[], named: boolean): pg.QueryConfig {
  const name = named ? preparedName(sql) : undefined;
  return name === undefined ? { text: sql, values: [...params] } : { name, text: sql, values: [...params] };
}

function clientDb(client: pg.PoolClient, named: boolean): Db {
  const db: Db = {
    async query<T>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(queryOf(sql, params, named));
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

async function run<T>(target: Queryable, sql: string, params: readonly unknown[], named: boolean): Promise<{ rows: T[] }> {
  const result = await target.query(queryOf(sql, params, named));
  return { rows: result.rows as T[] };
}

/** A PostgreSQL server through a `pg` pool (DATABASE_URL). */
export function openPostgres(connectionString: string, options: PostgresOptions = {}): Db {
  const named = options.preparedStatements ?? true;
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client losing its connection must not take the process down; the next query reconnects.
  pool.on('error', () => {});
  return {
    query: <T>(sql: string, params: readonly unknown[] = []) => run<T>(pool, sql, params, named),
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
        const result = await fn(clientDb(client, named));
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
