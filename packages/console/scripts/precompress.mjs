#!/usr/bin/env node
// After `vite build` (issue 38): each compressible file of dist gets a brotli (file.br, quality 11)
// and a gzip (file.gz, level 9) copy beside it, made once here so the server sends them as they are
// by the browser's Accept-Encoding (packages/server/src/http/static-console.ts, @fastify/static's
// preCompressed). A copy that would not be smaller than the file is not written. Another folder:
// `node precompress.mjs <dist>`.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const dist = process.argv[2] ?? join(import.meta.dirname, '..', 'dist');
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** One file's copies; the byte counts written (0 for a copy not kept). */
async function precompress(path) {
  const body = await readFile(path);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipped(body, { level: 9 }),
  ]);
  const written = { file: body.length, br: 0, gz: 0 };
  for (const [extension, copy] of [
    ['br', br],
    ['gz', gz],
  ]) {
    if (copy.length < body.length) {
      await writeFile(`${path}.${extension}`, copy);
      written[extension] = copy.length;
    } else await rm(`${path}.${extension}`, { force: true });
  }
  return written;
}

const files = (await readdir(dist, { recursive: true })).filter((name) => COMPRESSIBLE.test(name)).map((name) => join(dist, name));
const totals = { file: 0, br: 0, gz: 0 };
for (const written of await Promise.all(files.map(precompress))) for (const key of Object.keys(totals)) totals[key] += written[key];
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`precompressed ${files.length} files of dist: ${kib(totals.file)} → brotli ${kib(totals.br)}, gzip ${kib(totals.gz)}`);
