import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { Db } from './db.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir' | 'databasePreparedStatements'>): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, { preparedStatements: config.databasePreparedStatements });
  return openPglite(join(config.dataDir, 'pglite'));
}
