import type { Db } from './db.ts';
import { bind, sqlDirection, type Condition } from './list-page.ts';
import { seekAfter, type SeekColumn } from './ranged-list-page.ts';

export interface KeysetBatchSpec {
  table: string;
  /** The SELECT list, aliased to the domain's field names. */
  columns: string;
  /** The project, the range and the filters. */
  where: readonly Condition[];
  /** A total order of columns that are never null (a row comparison skips nulls), e.g. created_at, id. */
  order: readonly SeekColumn[];
  direction: 'asc' | 'desc';
  batchSize: number;
}

/**
 * Every row matching `where`, in `order`, a batch at a time (docs/decisions/0019 "Export"): each
 * batch is one statement that seeks after the last row of the batch before — an index range read
 * of `batchSize` rows, however deep into the result — so a million rows are read without an
 * OFFSET and without holding more than one batch. No transaction is held between batches (on PGlite
 * it would hold the one connection): a row written meanwhile may or may not appear, none appears twice.
 * Ends early when the consumer stops (`return()`), e.g. a client that went away.
 */
export async function* keysetBatches<T>(db: Db, spec: KeysetBatchSpec): AsyncGenerator<T[]> {
  const direction = sqlDirection(spec.direction);
  const orderBy = spec.order.map((c) => `${c.column} ${direction}`).join(', ');
  const seekKey = `ARRAY[${spec.order.map((c) => c.text).join(', ')}] AS "seekKey"`;
  let after: string[] | null = null;
  for (;;) {
    const params: unknown[] = [];
    const where = bind([...spec.where, ...(after ? [seekAfter(spec.order, direction, after)] : [])], params);
    params.push(spec.batchSize);
    const sql = `SELECT ${spec.columns}, ${seekKey} FROM ${spec.table} WHERE ${where} ORDER BY ${orderBy} LIMIT $${params.length}`;
    const rows = (await db.query<T & { seekKey: string[] }>(sql, params)).rows;
    if (rows.length === 0) return;
    after = (rows.at(-1) as { seekKey: string[] }).seekKey;
    yield rows.map(({ seekKey: _seekKey, ...row }) => row as T);
    if (rows.length < spec.batchSize) return;
  }
}
