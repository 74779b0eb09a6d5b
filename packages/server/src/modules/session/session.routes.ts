import type { FastifyInstance } from 'fastify';
import { sessionApi } from '@latchkey/domain';
import { clearSessionCookies, LOGIN_COOKIE, SESSION_COOKIE, setSessionCookies, type CookieOptions } from '../../http/cookies.ts';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { SessionService } from './session.service.ts';

/** spec §7 "Session". */
export function registerSessionRoutes(app: FastifyInstance, sessions: SessionService, cookies: CookieOptions): void {
  registerEndpoint(app, sessionApi.getAuthUrl, async ({ query, request, reply }) => {
    const { authUrl, binding } = await sessions.startLogin({
      redirectURL: query.redirectURL,
      stateNext: query.state_next,
      binding: request.cookies[LOGIN_COOKIE],
    });
    reply.setCookie(LOGIN_COOKIE, binding, cookies.login);
    return { authUrl };
  });

  registerEndpoint(app, sessionApi.login, async ({ body, request, reply }) => {
    const { session, next } = await sessions.login({
      ...body,
      binding: request.cookies[LOGIN_COOKIE],
      previousSessionId: request.cookies[SESSION_COOKIE],
    });
    setSessionCookies(reply, cookies, session);
    return { next };
  });

  registerEndpoint(app, sessionApi.getAccount, async ({ actor }) => sessions.account(actor()));

  registerEndpoint(app, sessionApi.getConsoleConfig, async () => sessions.consoleConfig());

  registerEndpoint(app, sessionApi.logout, async ({ request, reply }) => {
    const result = await sessions.logout(request.cookies[SESSION_COOKIE]);
    clearSessionCookies(reply, cookies);
    return result;
  });
}
