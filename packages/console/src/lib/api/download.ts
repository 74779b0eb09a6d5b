import type { Endpoint } from '@latchkey/domain';
import { ApiError } from './api-error.ts';
import { API_BASE, pathOf, queryString, readJson, toApiError, type RequestOptions } from './client.ts';
import type { ApiRoute } from './contract.ts';
import { emitSessionExpired } from './session-events.ts';

// Files the API answers (exports): only the pages that export load this (not the first download).

/** How much of a file has arrived: line ends and bytes. */
export interface DownloadProgress {
  lines: number;
  bytes: number;
}

/** A file the API answered (an export), and how many lines it held. */
export interface DownloadedFile {
  blob: Blob;
  /** From the answer's Content-Disposition; else `fallbackName`. */
  filename: string;
  /** Line ends counted in the file (a CSV's header line included). */
  lines: number;
}

const LINE_FEED = 0x0a;

function filenameOf(disposition: string | null): string | null {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? null;
}

/**
 * A contract entry that `produces` a file (an export, docs/decisions/0019), read as it streams:
 * `onProgress` hears the lines and bytes received so far after each chunk. An error answer is an
 * `ApiError` as for `request`; a transfer broken half-way (the server stops a stream it cannot
 * finish) rejects, never answers a short file. The chunks are kept as they come and joined into one
 * Blob at the end (a large Blob is kept out of the page's memory by the browser).
 */
export async function download<E extends Endpoint>(
  endpoint: ApiRoute<E>,
  options: RequestOptions<E> & { fallbackName: string; onProgress?: (received: DownloadProgress) => void },
): Promise<DownloadedFile> {
  const url = `${API_BASE}${pathOf(endpoint, options)}${queryString(options.query)}`;
  let response: Response;
  try {
    response = await fetch(url, { method: 'GET', credentials: 'include', signal: options.signal ?? null });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : 'Network error');
  }
  if (!response.ok) {
    if (response.status === 401) emitSessionExpired();
    throw toApiError(response.status, response.statusText, await readJson(response));
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let lines = 0;
  let bytes = 0;
  if (response.body) {
    const reader = response.body.getReader();
    // Stopping ends the transfer (a pending read then answers done), and the file is not kept.
    const stop = () => void reader.cancel().catch(() => undefined);
    options.signal?.addEventListener('abort', stop, { once: true });
    for (;;) {
      let read: ReadableStreamReadResult<Uint8Array<ArrayBuffer>>;
      try {
        read = await reader.read();
      } catch (cause) {
        if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
        throw new ApiError(0, 'network_error', cause instanceof Error ? cause.message : 'Network error');
      }
      if (read.done) break;
      const chunk = read.value;
      chunks.push(chunk);
      bytes += chunk.byteLength;
      for (let i = chunk.indexOf(LINE_FEED); i !== -1; i = chunk.indexOf(LINE_FEED, i + 1)) lines += 1;
      options.onProgress?.({ lines, bytes });
    }
    options.signal?.removeEventListener('abort', stop);
    if (options.signal?.aborted) throw new DOMException('The export was stopped', 'AbortError');
  }
  const type = response.headers.get('Content-Type') ?? 'application/octet-stream';
  return { blob: new Blob(chunks, { type }), filename: filenameOf(response.headers.get('Content-Disposition')) ?? options.fallbackName, lines };
}
