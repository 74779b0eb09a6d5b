import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { IMPORT_LINE_MAX_BYTES } from '@latchkey/domain';

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

export async function* linesOf(stream: Readable): AsyncGenerator<FileLine[]> {
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
    const text = decoder.write(chunk as Buffer);
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
