import type { FastifyInstance } from 'fastify';
import type { CustomFetch } from 'openid-client';

/**
 * A fetch for openid-client that answers requests to our own origin in-process (Fastify inject),
 * so the console reaches the built-in provider without a network round trip to PUBLIC_URL — which
 * may not be reachable from the server itself (TLS offloading, hairpin NAT). Other origins use fetch.
 */
export function inProcessFetch(app: FastifyInstance, publicUrl: string): CustomFetch {
  const own = new URL(publicUrl);
  return async (url, options) => {
    const target = new URL(url);
    if (target.origin !== own.origin) return fetch(url, options as RequestInit);
    const body = options.body;
    let payload: string | Buffer | undefined;
    if (body instanceof URLSearchParams) payload = body.toString();
    else if (typeof body === 'string') payload = body;
    else if (body instanceof Uint8Array) payload = Buffer.from(body);
    else if (body instanceof ArrayBuffer) payload = Buffer.from(body);
    const response = await app.inject({
      method: options.method as 'GET' | 'POST',
      url: `${target.pathname}${target.search}`,
      headers: {
        ...options.headers,
        host: own.host,
        ...(own.protocol === 'https:' ? { 'x-forwarded-proto': 'https' } : {}),
      },
      ...(payload !== undefined ? { payload } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, String(v));
    }
    const empty = response.statusCode === 204 || response.statusCode === 304;
    return new Response(empty ? null : response.rawPayload, { status: response.statusCode, headers });
  };
}
