import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@latchkey/domain';
import { DOCS_PATH } from '../config.ts';
import type { ServerResponse } from 'node:http';

/**
 * Scripts only from our own origin. Styles also allow inline because Mantine injects them; images
 * allow https: and data: for project logos. Nothing may frame us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Browsers keep to HTTPS for a year once they saw this over HTTPS (only sent when PUBLIC_URL is https). */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

/** For responses written straight to the socket (the mounted provider). */
export function setSecurityHeaders(res: ServerResponse, csp: string = CONTENT_SECURITY_POLICY, options: { https: boolean }): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
  res.setHeader('Content-Security-Policy', csp);
  if (options.https) res.setHeader('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
}

export function installSecurityHeaders(app: FastifyInstance, options: { https: boolean }): void {
  app.addHook('onSend', async (request, reply, payload) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
    if (!reply.hasHeader('Content-Security-Policy')) reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    if (options.https) reply.header('Strict-Transport-Security', STRICT_TRANSPORT_SECURITY);
    // API answers are about one account's data: no shared or disk cache keeps them.
    if (request.url.startsWith(`${API_BASE_PATH}/`) && !request.url.startsWith(DOCS_PATH) && !reply.hasHeader('Cache-Control')) {
      reply.header('Cache-Control', 'no-store');
    }
    return payload;
  });
}
