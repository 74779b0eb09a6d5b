import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, XSRF_HEADER } from '@latchkey/domain';
import type { Actor, CallOrigin } from './actor.ts';
import { clearSessionCookies, SESSION_COOKIE, type CookieOptions } from './cookies.ts';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The caller's address (under TRUST_PROXY) and user agent, carried on the actor to the audit events of its writes. */
function originOf(request: FastifyRequest): CallOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip || null, userAgent: typeof agent === 'string' && agent !== '' ? agent : null };
}

/**
 * Service accounts call with `Authorization: Bearer <token>` (DESIGN "Service accounts", issue 12):
 * this hook answers who the token belongs to, or null (`origin`: where the call came from, noted
 * as the token's last use). A bearer call is judged by its token alone: its cookies are not read,
 * so it needs no XSRF header.
 */
export type BearerAuthenticator = (token: string, origin: CallOrigin) => Promise<Actor | null>;

/** A console session as a request finds it (modules/session answers it). */
export interface AuthenticatedSession {
  actor: Actor;
  /** Whether `token` (the X-XSRF-TOKEN header) is this session's token; constant time. */
  xsrfMatches(token: string): boolean;
}

export interface RequestAuthenticatorDeps {
  sessions: { authenticate(sessionId: string): Promise<AuthenticatedSession | null> };
  bearer: BearerAuthenticator;
  cookies: CookieOptions;
}

/**
 * Who is calling, or null. A cookie session on an unsafe method must echo its XSRF token in the
 * X-XSRF-TOKEN header (DESIGN "XSRF: double-submit"); a mismatch is 403 xsrf_failed.
 */
export function createRequestAuthenticator({ sessions, bearer, cookies }: RequestAuthenticatorDeps) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<Actor | null> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined && /^bearer /i.test(authorization)) {
      const origin = originOf(request);
      const actor = await bearer(authorization.slice('Bearer '.length).trim(), origin);
      if (!actor) throw new DomainError('unauthorized', 'The bearer token is not valid, has expired or was revoked');
      return { ...actor, origin };
    }

    const sessionId = request.cookies[SESSION_COOKIE];
    if (!sessionId) return null;
    const session = await sessions.authenticate(sessionId);
    if (!session) {
      // Expired or unknown: tell the browser to forget it.
      clearSessionCookies(reply, cookies);
      return null;
    }
    if (UNSAFE_METHODS.has(request.method)) {
      const header = request.headers[XSRF_HEADER.toLowerCase()];
      if (typeof header !== 'string' || !session.xsrfMatches(header)) {
        throw new DomainError('xsrf_failed', 'Missing or wrong X-XSRF-TOKEN header');
      }
    }
    return { ...session.actor, origin: originOf(request) };
  };
}

export type RequestAuthenticator = ReturnType<typeof createRequestAuthenticator>;
