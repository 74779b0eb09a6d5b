import { z } from 'zod';

// Exports of a ranged list (issue 9: the audit log and the devices, docs/decisions/0019 "Export"):
// the list's filter and range, no paging, streamed as a file in created-at order.

/** The formats an export is written in, and the media type of each (CSV is answered with `; charset=utf-8`). */
export const EXPORT_FORMATS = {
  /** RFC 4180: a header row, CRLF line ends, quoted where needed; cells that a spreadsheet would run as a formula start with `'`. */
  csv: 'text/csv',
  /** JSON Lines: one JSON object per line, each the list's item as the list call answers it. */
  jsonl: 'application/x-ndjson',
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** The `format` query parameter of an export: `csv` or `jsonl`, required. */
export const exportFormatParam = () =>
  z.enum(Object.keys(EXPORT_FORMATS) as [ExportFormat, ...ExportFormat[]], { error: 'validation.invalid_value' });

/**
 * The characters that make a spreadsheet read a cell as a formula (OWASP "CSV injection"): a CSV
 * cell starting with one of them is written with a leading apostrophe.
 */
export const CSV_FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r'] as const;

/** A successful export's body: text in the format asked for (the schema documents it; the server streams it). */
export const exportFileSchema = z.string().meta({ description: 'The file: CSV (text/csv) or JSON Lines (application/x-ndjson), by `format`' });
