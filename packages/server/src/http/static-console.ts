import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@latchkey/domain';
import { NOT_FOUND_BODY } from '../errors.ts';

/** The built console, found from this package (not from the working directory). */
export const CONSOLE_DIST = resolve(import.meta.dirname, '../../../console/dist');

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Latchkey</title></head>
<body><main><h1>The console is not built</h1>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds it) and restart the server.
The API is available under <a href="/api/docs">/api/docs</a>.</p></main></body></html>`;

/** The path of a URL as the file server reads it (percent-decoded); the raw path when it cannot be decoded. */
function decodedPath(url: string): string {
  const path = url.split('?')[0] ?? '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** A path the single-page app answers for (any other GET outside /api and /idp). */
function isAppRoute(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  if (path === API_BASE_PATH || path.startsWith(`${API_BASE_PATH}/`) || path === '/idp' || path.startsWith('/idp/')) return false;
  // Nor a well-known file (RFC 8615): /.well-known/webauthn is a project host's only (docs/decisions/0047).
  if (path.startsWith('/assets/') || path.startsWith('/.well-known/')) return false;
  // A missing file (favicon.png, app.js.map) is a 404, not the app.
  const last = path.slice(path.lastIndexOf('/') + 1);
  return !last.includes('.');
}

/**
 * Serves packages/console/dist: hashed /assets/* cached for a year, index.html never cached, and
 * index.html for every app route (the SPA fallback), each compressed as the build left it when the
 * browser accepts it. Unknown /api/* answers a JSON 404.
 */
export async function installStaticConsole(app: FastifyInstance, dist: string = CONSOLE_DIST): Promise<void> {
  const built = existsSync(join(dist, 'index.html'));
  // Source maps would publish the console's source (issue 7): the build emits none, and a map left
  // beside the bundle by a development build is not served either.
  app.addHook('onRequest', async (request, reply) => {
    if (/\.map$/i.test(decodedPath(request.url))) return reply.status(404).send(NOT_FOUND_BODY);
  });
  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      index: 'index.html',
      wildcard: true,
      // Issue 38: the build's brotli and gzip copies (file.br, file.gz: packages/console/scripts/
      // precompress.mjs), sent by Accept-Encoding with Vary: Accept-Encoding; the file itself otherwise.
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, sent) {
        const path = sent.replace(/\.(?:br|gz)$/, '');
        if (path.startsWith(join(dist, 'assets'))) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
        else if (path.endsWith('.html')) reply.header('Cache-Control', 'no-cache');
        else reply.header('Cache-Control', 'public, max-age=3600');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    if ((request.method === 'GET' || request.method === 'HEAD') && isAppRoute(request.url)) {
      // Checked per request: a rebuild of the console empties dist for a moment.
      if (!built || !existsSync(join(dist, 'index.html')))
        return reply.status(200).type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(NOT_BUILT_PAGE);
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send(NOT_FOUND_BODY);
  });
}
