import { Readable } from 'node:stream';
import type { FileAnswer } from './register-endpoint.ts';
import { CSV_FORMULA_STARTS, EXPORT_FORMATS, type DateRange, type ExportFormat } from '@latchkey/domain';

/**
 * Exports as files (issue 9, docs/decisions/0019 "Export"): a list's rows, read in batches, written
 * as CSV or JSON Lines while they are read. Only one batch is held at a time, and the next batch is
 * read only when the client has taken the one before (the stream's back-pressure).
 */

/** One column of a CSV export: its header and the cell of a row (null: an empty cell). */
export interface CsvColumn<T> {
  header: string;
  cell(row: T): string | null;
}

const FORMULA_START = new Set<string>(CSV_FORMULA_STARTS);

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma, CR or LF, quotes doubled. A value
 * a spreadsheet would read as a formula (starting with = + - @, a tab or a CR: OWASP "CSV
 * injection") is written with a leading apostrophe, so it opens as text; JSON Lines keeps values as they are.
 */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const safe = value.length > 0 && FORMULA_START.has(value[0] as string) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const csvRecord = (fields: ReadonlyArray<string | null>): string => `${fields.map(csvField).join(',')}\r\n`;

export type ExportFile = FileAnswer;

/**
 * The file of an export: CSV (a header row, then one record per row) or JSON Lines (`json(row)` per
 * line). Each batch becomes one chunk of the stream; an error while reading destroys the stream, so
 * the client sees a broken transfer, never a short file that looks whole.
 */
export function exportFile<T>(p: {
  format: ExportFormat;
  filename: string;
  batches: AsyncIterable<T[]>;
  columns: ReadonlyArray<CsvColumn<T>>;
  json(row: T): unknown;
}): ExportFile {
  async function* chunks(): AsyncGenerator<string> {
    if (p.format === 'csv') yield csvRecord(p.columns.map((c) => c.header));
    for await (const batch of p.batches) {
      yield p.format === 'csv'
        ? batch.map((row) => csvRecord(p.columns.map((c) => c.cell(row)))).join('')
        : batch.map((row) => `${JSON.stringify(p.json(row))}\n`).join('');
    }
  }
  // Strings, not objects, and at most one batch waiting beyond the one being written.
  const body = Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
  return {
    filename: `${p.filename}.${p.format}`,
    contentType: p.format === 'csv' ? `${EXPORT_FORMATS.csv}; charset=utf-8` : EXPORT_FORMATS[p.format],
    body,
  };
}

/** `audit-<project>-<first day>-<last day>`: the range's days (UTC), the project id in safe characters. */
export function exportFilename(what: string, projectId: string, range: DateRange): string {
  const lastDay = new Date(range.to.getTime() - 1).toISOString().slice(0, 10);
  return `${what}-${projectId.replace(/[^A-Za-z0-9._-]/g, '_')}-${range.from.toISOString().slice(0, 10)}-${lastDay}`;
}
