import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { setSecurityHeaders, STRICT_TRANSPORT_SECURITY } from '../http/security-headers.ts';
import { STYLESHEET, STYLESHEET_PATH } from './pages/views.ts';

/**
 * What every issuer of this server shares on the wire — the console's under /idp and each project's
 * under /p/{project} or at its custom domain: oidc-provider mounted on Fastify with its scheme and
 * host pinned to the issuer's origin, the pages' security headers and stylesheet.
 */

/**
 * The sign-in pages allow nothing but our own stylesheet and scripts, and forms posting to us.
 * `returnsTo`: the origin of the client's redirect URI (its scheme for a native app's private-use
 * scheme). Chromium applies form-action to every redirect that follows a form's submission, and the
 * last form of a sign-in ends in a redirect to the client (POST → /auth/{uid} → redirect_uri), so
 * that origin is allowed too. `logoFrom`: the origin of the project's logo (views.ts pageLogo), the
 * one other place images may come from.
 */
export function signInCsp(returnsTo?: string, logoFrom?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data:${logoFrom ? ` ${logoFrom}` : ''}`,
    "object-src 'none'",
    "base-uri 'none'",
    `form-action 'self'${returnsTo ? ` ${returnsTo}` : ''}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

export const SIGN_IN_CSP = signInCsp();

// Schemes never allowed as a form's destination, even were a redirect URI to name one.
const NO_FORM_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'filesystem:']);

/**
 * Where a redirect URI (already matched by the provider against the client's) may be named in
 * form-action: the origin of an http(s) URI; for a native app's private-use scheme
 * (`com.example.app:/cb`, RFC 8252 §7.1) that scheme alone (`com.example.app:`, a CSP scheme-source:
 * the URL parser gives only letters, digits, '+', '-' and '.'); else undefined.
 */
export function formTargetOf(redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string') return undefined;
  try {
    const url = new URL(redirectUri);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.origin;
    return /^[a-z][a-z0-9+.-]*:$/.test(url.protocol) && !NO_FORM_SCHEMES.has(url.protocol) ? url.protocol : undefined;
  } catch {
    return undefined;
  }
}

const SITE_ORIGIN = Symbol('siteOrigin');
type RoutedMessage = IncomingMessage & { [SITE_ORIGIN]?: URL };

/**
 * Marks a request routed by its Host to a project's custom domain (issuer/custom-domains.ts),
 * before routing: it is pinned to that origin instead of PUBLIC_URL. The origin comes from the
 * project's stored settings, never from what the client sent.
 */
export function routeToOrigin(raw: IncomingMessage, origin: URL): void {
  (raw as RoutedMessage)[SITE_ORIGIN] = origin;
}

/** The custom domain's origin a request was routed to, or undefined (PUBLIC_URL's). */
export function routedOrigin(raw: IncomingMessage): URL | undefined {
  return (raw as RoutedMessage)[SITE_ORIGIN];
}

/**
 * The provider builds its URLs and decides on Secure cookies from the request (Host,
 * X-Forwarded-Proto/-Host, with provider.proxy). Those are pinned to PUBLIC_URL here (or to the
 * custom domain the request was routed to, routeToOrigin), so neither a forged Host nor a forged
 * X-Forwarded-Proto changes the issuer's endpoints or the cookies; the client address is the one
 * Fastify established under TRUST_PROXY.
 */
export function pinToPublicUrl(request: FastifyRequest, publicUrl: URL): void {
  const site = routedOrigin(request.raw) ?? publicUrl;
  const headers = request.raw.headers;
  const clientIp = request.ip;
  delete headers.forwarded;
  headers.host = site.host;
  headers['x-forwarded-host'] = site.host;
  headers['x-forwarded-proto'] = site.protocol.slice(0, -1);
  headers['x-forwarded-for'] = clientIp;
}

/**
 * HSTS follows the origin a page is served at — a custom domain's scheme, not PUBLIC_URL's
 * (docs/decisions/0016) — over the server-wide header installSecurityHeaders set before.
 */
export function strictTransportFor(request: FastifyRequest, reply: FastifyReply, publicUrl: URL): void {
  if ((routedOrigin(request.raw) ?? publicUrl).protocol === 'https:') reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
  else reply.removeHeader('Strict-Transport-Security');
}

/** The provider and its pages are not part of the management API document. */
export function hideFromOpenApi(context: FastifyInstance): void {
  context.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
  });
}

type ProviderRequest = FastifyRequest<{ Params: Record<string, string> }>;

/** Which provider answers a request, and the path it is mounted on; null: answered already (reply sent). */
export type ResolveProvider = (request: ProviderRequest, reply: FastifyReply) => Promise<{ provider: Provider; mountPath: string } | null>;

/**
 * Mounts oidc-provider under `route` (e.g. `/idp/*`, `/p/:project/*`). The provider reads its own
 * request bodies, so its routes get the raw request (reply.hijack) and no body parser.
 */
export async function mountProviders(app: FastifyInstance, options: { route: string; publicUrl: string; resolve: ResolveProvider }): Promise<void> {
  const handlers = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const handlerOf = (provider: Provider) => {
    let handler = handlers.get(provider);
    if (!handler) {
      handler = provider.callback();
      handlers.set(provider, handler);
    }
    return handler;
  };
  const origin = new URL(options.publicUrl);
  await app.register(async (raw) => {
    hideFromOpenApi(raw);
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    raw.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    // The pages answered here before the provider (refusals, a moved issuer).
    raw.addHook('onSend', async (request, reply, payload) => {
      strictTransportFor(request, reply, origin);
      return payload;
    });
    raw.all(options.route, async (request: ProviderRequest, reply) => {
      const target = await options.resolve(request, reply);
      if (!target) return reply;
      reply.hijack();
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      // oidc-provider derives its mount path from originalUrl minus url (its "mounting" docs).
      req.originalUrl = req.url;
      req.url = (req.url ?? '/').slice(target.mountPath.length) || '/';
      setSecurityHeaders(reply.raw, SIGN_IN_CSP, { https: (routedOrigin(req) ?? origin).protocol === 'https:' });
      await handlerOf(target.provider)(req, reply.raw);
    });
  });
}

/** The pages' one stylesheet, served once for every provider's pages. */
export function registerSignInStylesheet(app: FastifyInstance): void {
  app.get(STYLESHEET_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
  );
}
