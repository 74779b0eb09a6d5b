import { StringDecoder } from 'node:string_decoder';
import {
  EXPORT_ONLY_FIELDS,
  IMPORT_FIELDS,
  IMPORT_LINE_MAX_BYTES,
  importedPerson,
  isLineRefusal,
  type ImportedPerson,
  type ImportRefusal,
} from '@latchkey/domain';
import { isRefusal, parsePasswordHash } from '../../people/password-hashes.ts';

/**
 * An import's file read as it arrives (docs/decisions/0052): lines with their numbers, a chunk's
 * lines at a time, so memory holds one chunk and one unfinished line whatever the file's size. A
 * line longer than IMPORT_LINE_MAX_BYTES is not kept: it comes out as `tooLong`.
 */
export interface FileLine {
  number: number;
  text: string;
  tooLong: boolean;
}

export async function* linesOf(stream: AsyncIterable<Buffer>): AsyncGenerator<FileLine[]> {
  const decoder = new StringDecoder('utf8');
  let number = 0;
  let pending = '';
  let overflow = false;
  const finish = (text: string): FileLine => {
    number += 1;
    const line = { number, text: overflow ? '' : text.endsWith('\r') ? text.slice(0, -1) : text, tooLong: overflow };
    overflow = false;
    return line;
  };
  for await (const chunk of stream) {
    const text = decoder.write(chunk);
    const lines: FileLine[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      lines.push(finish(pending + text.slice(start, end)));
      pending = '';
      start = end + 1;
    }
    if (!overflow) pending += text.slice(start);
    // Characters, not bytes: at most 4 bytes each, so a line cut here is over the limit in bytes too.
    if (pending.length > IMPORT_LINE_MAX_BYTES) {
      overflow = true;
      pending = '';
    }
    if (lines.length > 0) yield lines;
  }
  const rest = pending + decoder.end();
  if (rest !== '' || overflow) yield [finish(rest)];
}

/** One CSV record of a line (RFC 4180 quoting, no line break inside a field), or null when its quotes do not close. */
export function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i += 1;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote === -1) return null;
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      if (i === line.length) return fields;
      if (line[i] !== ',') return null;
      i += 1;
    } else {
      const comma = line.indexOf(',', i);
      const value = comma === -1 ? line.slice(i) : line.slice(i, comma);
      if (value.includes('"')) return null;
      fields.push(value);
      if (comma === -1) return fields;
      i = comma + 1;
    }
  }
}

/** A CSV header's names: the import's fields and the export's own (an export's columns import as they are). */
const HEADER_NAMES = new Set<string>([...IMPORT_FIELDS, ...EXPORT_ONLY_FIELDS]);

type LineResult = { line: number; person: ImportedPerson } | ImportRefusal;

/** A line's fields: a JSON object, or a CSV record under the header's names. */
function fieldsOf(line: FileLine, header: string[] | null): { fields: Record<string, unknown> } | { refusal: ImportRefusal } {
  const refusal = (reason: ImportRefusal['reason'], message: string) => ({ refusal: { line: line.number, reason, message } });
  if (line.tooLong) return refusal('line_too_long', `The line is longer than ${IMPORT_LINE_MAX_BYTES} bytes`);
  if (header === null) {
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch {
      return refusal('not_json', 'The line is not JSON');
    }
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { fields: value as Record<string, unknown> }
      : refusal('not_an_object', 'The line is not a JSON object');
  }
  const cells = csvFields(line.text);
  if (cells === null) return refusal('csv_quotes', 'A quoted field does not close on this line');
  if (cells.length !== header.length) return refusal('csv_columns', `The line has ${cells.length} fields, the header ${header.length}`);
  return { fields: Object.fromEntries(header.map((name, i) => [name, cells[i]])) };
}

/** A line with nothing on it: skipped, its number kept. */
export const isBlank = (line: FileLine): boolean => !line.tooLong && line.text.trim() === '';

/** What a CSV file's first line must be. */
export const CSV_HEADER_MESSAGE = 'The first line of a CSV file is its header: email, and any of verified, name, externalId, passwordHash';

/** A CSV file's header (its first line that is not blank), or null when it is not one. */
export function csvHeaderOf(line: FileLine): string[] | null {
  const names = line.tooLong ? null : csvFields(line.text);
  return names && names.every((n) => HEADER_NAMES.has(n)) && names.includes('email') ? names : null;
}

/** What is stored of a line, or why nothing of it is. */
export function readLine(line: FileLine, header: string[] | null): LineResult {
  const read = fieldsOf(line, header);
  if ('refusal' in read) return read.refusal;
  const person = importedPerson(read.fields);
  if (isLineRefusal(person)) return { line: line.number, ...person };
  if (person.passwordHash !== null) {
    const parsed = parsePasswordHash(person.passwordHash);
    if (isRefusal(parsed)) return { line: line.number, ...parsed };
  }
  return { line: line.number, person };
}
