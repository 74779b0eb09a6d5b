import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Issue 38: what a browser downloads goes compressed. The console's built files are compressed once
 * at build (packages/console/scripts/precompress.mjs) and sent as they are (static-console.ts); the
 * pages and scripts the server writes per request (the sign-in and account pages, the issuer's
 * stylesheet and passkey scripts) are compressed here as they leave, brotli or gzip by the
 * request's Accept-Encoding, with `Vary: Accept-Encoding`. API answers (JSON) are left as they are.
 */

export type Encoding = 'br' | 'gzip';

/** Brotli when the request accepts it, else gzip, else null (RFC 9110 §12.5.3: q=0 refuses, `*` is anything). */
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    weights.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  return weight('gzip') > 0 ? 'gzip' : null;
}

/** Names Accept-Encoding in the answer's Vary, keeping what is there. */
export function varyOnEncoding(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const names = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.includes('*') || names.some((n) => n.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...names, 'Accept-Encoding'].join(', '));
}

/** HTML, CSS and JavaScript written by the server. */
const COMPRESSIBLE = /^(?:text\/(?:html|css|javascript)|application\/javascript)\b/i;
/** Below this, the encoding's own bytes and the CPU cost more than they save (a sign-in page is ≈ 900 bytes, 500 gzipped). */
const SMALLEST = 256;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Below this, a body is compressed on the event loop rather than in libuv's thread pool: a page of a
 * few kilobytes takes a fraction of a millisecond, while the hand-over to a pool thread and back
 * (locks, a wake-up, the completion) cost two to four times the compression's own CPU here (issue 38).
 */
const SYNC_LARGEST = 64 * 1024;

/** The window for `length` bytes: the smallest power of two that holds them, within [lo, hi] bits (less memory to set up per call). */
const windowBits = (length: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, Math.ceil(Math.log2(length))));

/** On the fly: a quick brotli level (5 is within a few per cent of 11 on pages, at a fraction of its time). */
function compress(body: Buffer, encoding: Encoding): Buffer | Promise<Buffer> {
  const sync = body.length <= SYNC_LARGEST;
  if (encoding === 'br') {
    const options = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 5,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [constants.BROTLI_PARAM_LGWIN]: windowBits(body.length, constants.BROTLI_MIN_WINDOW_BITS, 22),
      },
    };
    return sync ? brotliCompressSync(body, options) : brotli(body, options);
  }
  const options = { level: 6, windowBits: windowBits(body.length, 9, 15), memLevel: sync ? 6 : 8 };
  return sync ? gzipSync(body, options) : gzipped(body, options);
}

/** `body` in the encoding `acceptEncoding` prefers, or null: not accepted, or too small to gain. */
export async function compressedFor(acceptEncoding: string | undefined, body: Buffer): Promise<{ encoding: Encoding; body: Buffer } | null> {
  const encoding = acceptedEncoding(acceptEncoding);
  if (encoding === null || body.length < SMALLEST) return null;
  return { encoding, body: await compress(body, encoding) };
}

/** Compresses the server's own HTML, CSS and JavaScript answers (strings and buffers; a file's stream is static-console's). */
export function installCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? '')) || reply.hasHeader('content-encoding')) return payload;
    if (request.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < SMALLEST) return payload;
    varyOnEncoding(reply);
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    if (encoding === null) return payload;
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length');
    // Another representation of the same resource: a strong validator would claim the same bytes.
    const etag = reply.getHeader('etag');
    if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
    return compress(body, encoding);
  });
}
