import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply } from 'fastify';
import { API_BASE_PATH, SESSION_COOKIE, XSRF_COOKIE } from '@latchkey/domain';
import { isSecure, type Config } from '../config.ts';

// DESIGN "Sessions": idle and absolute expiry; the session cookies live as long as a session can.
export const SESSION_IDLE_MS = 2 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** How long a sign-in may take between GET /api/authurl and POST /api/login. */
export const LOGIN_ATTEMPT_MS = 15 * 60 * 1000;

/** Binds a sign-in attempt to the browser that started it (docs/decisions/0003). */
export const LOGIN_COOKIE = 'lk_login';
export { SESSION_COOKIE, XSRF_COOKIE };

export function cookieOptions(config: Pick<Config, 'publicUrl'>) {
  const base: CookieSerializeOptions = { path: '/', sameSite: 'lax', secure: isSecure(config) };
  return {
    session: { ...base, httpOnly: true, maxAge: SESSION_ABSOLUTE_MS / 1000 },
    // Readable by the console's script: it echoes the value in the X-XSRF-TOKEN header.
    xsrf: { ...base, httpOnly: false, maxAge: SESSION_ABSOLUTE_MS / 1000 },
    login: { ...base, path: API_BASE_PATH, httpOnly: true, maxAge: LOGIN_ATTEMPT_MS / 1000 },
  };
}

export type CookieOptions = ReturnType<typeof cookieOptions>;

export function setSessionCookies(reply: FastifyReply, options: CookieOptions, session: { sessionId: string; xsrfToken: string }) {
  reply.setCookie(SESSION_COOKIE, session.sessionId, options.session);
  reply.setCookie(XSRF_COOKIE, session.xsrfToken, options.xsrf);
}

export function clearSessionCookies(reply: FastifyReply, options: CookieOptions) {
  reply.clearCookie(SESSION_COOKIE, { path: options.session.path, sameSite: 'lax', secure: options.session.secure, httpOnly: true });
  reply.clearCookie(XSRF_COOKIE, { path: options.xsrf.path, sameSite: 'lax', secure: options.xsrf.secure });
}
