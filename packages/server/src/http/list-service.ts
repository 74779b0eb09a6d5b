import { requireDateRange, type DateRange, type ExportFormat, type RangeRules, type SortDirection } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/db.ts';
import { exportFile, exportFilename, type ExportFile } from './export-file.ts';

/** Rows per statement of an export (about 0.5 MB of audit events at a time). */
const EXPORT_BATCH_SIZE = 1000;

type Range = { fromDate?: string | undefined; toDate?: string | undefined };

/** What list-kit.ts's rangedListTable gives, as the service uses it. */
interface RangedTable {
  range: RangeRules;
  page(db: Db, projectId: string, range: DateRange, query: never): Promise<unknown>;
  batches(db: Db, projectId: string, range: DateRange, query: never, batchSize: number): AsyncGenerator<unknown[]>;
}
type PageQuery<T extends RangedTable> = Parameters<T['page']>[3] & Range;
type ExportQuery<T extends RangedTable> = Parameters<T['batches']>[3] & Range & { format: ExportFormat; direction: SortDirection };
type Item<T extends RangedTable> = T['batches'] extends (...args: never[]) => AsyncGenerator<Array<infer I>> ? I : never;

/** A CSV cell of any field of an item: text as is, absent empty, a yes/no or number as text, an object as JSON. */
function cell(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * The service of a ranged list (devices, audit events): its page and its export, both within the
 * query's creation-date range — by default the current month (UTC) of the server's clock, a year at
 * most (a longer or reversed one is a 400 before anything is read). The guard has checked the
 * project and the permission; a closed project is read like any other (spec §4: read-only, not
 * hidden). The export is the list's filter as CSV (`csv`: the columns in order) or JSON Lines (each
 * item as the list answers it), streamed in created-at order a batch at a time while the client
 * takes it (docs/decisions/0019 "Export").
 */
export function rangedListService<T extends RangedTable>(
  table: T,
  deps: { db: Db; clock: Clock },
  file: { name: string; csv: ReadonlyArray<keyof Item<T> & string>; batchSize?: number },
) {
  const { db, clock } = deps;
  return {
    list(projectId: string, query: PageQuery<T>): ReturnType<T['page']> {
      return table.page(db, projectId, requireDateRange(query, clock.now(), table.range), query as never) as ReturnType<T['page']>;
    },
    export(projectId: string, query: ExportQuery<T>): ExportFile {
      const { format } = query as { format: ExportFormat };
      const range = requireDateRange(query, clock.now(), table.range);
      return exportFile<Item<T>>({
        format,
        filename: exportFilename(file.name, projectId, range),
        batches: table.batches(db, projectId, range, query as never, file.batchSize ?? EXPORT_BATCH_SIZE) as AsyncGenerator<Item<T>[]>,
        columns: file.csv.map((header) => ({ header, cell: (row: Item<T>) => cell(row[header]) })),
        json: (row) => row,
      });
    },
  };
}
