import type { FastifyInstance } from 'fastify';
import { sessionApi } from '@latchkey/domain';
import { clearSessionCookies, LOGIN_COOKIE, SESSION_COOKIE, setSessionCookies, type CookieOptions } from '../../http/cookies.ts';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import { assertNotCrossSite } from '../../http/same-origin.ts';
import type { SessionService } from './session.service.ts';

/** spec §7 "Session". */
export function registerSessionRoutes(app: FastifyInstance, sessions: SessionService, cookies: CookieOptions, publicUrl: string): void {
  registerEndpoint(app, sessionApi.getAuthUrl, async ({ query, request, reply }) => {
    const { authUrl, pending } = await sessions.startLogin({
      redirectURL: query.redirectURL,
      stateNext: query.state_next,
      pending: request.cookies[LOGIN_COOKIE],
    });
    reply.setCookie(LOGIN_COOKIE, pending, cookies.login);
    return { authUrl };
  });

  registerEndpoint(app, sessionApi.login, async ({ body, request, reply }) => {
    const { session, next, pending } = await sessions.login({
      ...body,
      pending: request.cookies[LOGIN_COOKIE],
      previousSessionId: request.cookies[SESSION_COOKIE],
    });
    setSessionCookies(reply, cookies, session);
    if (pending) reply.setCookie(LOGIN_COOKIE, pending, cookies.login);
    else reply.clearCookie(LOGIN_COOKIE, cookies.login);
    return { next };
  });

  registerEndpoint(app, sessionApi.getAccount, async ({ actor }) => sessions.account(actor()));

  registerEndpoint(app, sessionApi.setAccountLanguage, async ({ actor, body }) => sessions.setLanguage(actor(), body));

  registerEndpoint(app, sessionApi.getConsoleConfig, async () => sessions.consoleConfig());

  // spec §7 keeps logout a GET; an <img src=/api/logout> on another site must not sign anyone out.
  registerEndpoint(app, sessionApi.logout, async ({ request, reply }) => {
    assertNotCrossSite(request, publicUrl);
    const result = await sessions.logout(request.cookies[SESSION_COOKIE]);
    clearSessionCookies(reply, cookies);
    return result;
  });
}
