import { sessionApi } from '@latchkey/domain';
import { clearSessionCookies, LOGIN_COOKIE, SESSION_COOKIE, setSessionCookies } from '../../http/cookies.ts';
import { assertNotCrossSite } from '../../http/same-origin.ts';
import { apiModule } from '../api-module.ts';
import { createSessionService } from './session.service.ts';

/** spec §7 "Session". */
export default apiModule(sessionApi, {
  services: ({ db, clock, config, signIn, secretBox }) => createSessionService({ db, clock, config, signIn, secretBox }),
  endpoints: (sessions, { cookies, config }) => ({
    getAuthUrl: async ({ query, request, reply }) => {
      const { authUrl, pending } = await sessions.startLogin({
        redirectURL: query.redirectURL,
        stateNext: query.state_next,
        pending: request.cookies[LOGIN_COOKIE],
      });
      reply.setCookie(LOGIN_COOKIE, pending, cookies.login);
      return { authUrl };
    },
    login: async ({ body, request, reply }) => {
      const { session, next, pending } = await sessions.login({
        ...body,
        pending: request.cookies[LOGIN_COOKIE],
        previousSessionId: request.cookies[SESSION_COOKIE],
      });
      setSessionCookies(reply, cookies, session);
      if (pending) reply.setCookie(LOGIN_COOKIE, pending, cookies.login);
      else reply.clearCookie(LOGIN_COOKIE, cookies.login);
      return { next };
    },
    getAccount: async ({ actor }) => sessions.account(actor()),
    setAccountLanguage: async ({ actor, body }) => sessions.setLanguage(actor(), body),
    getConsoleConfig: async () => sessions.consoleConfig(),
    // spec §7 keeps logout a GET; an <img src=/api/logout> on another site must not sign anyone out.
    logout: async ({ request, reply }) => {
      assertNotCrossSite(request, config.publicUrl);
      const result = await sessions.logout(request.cookies[SESSION_COOKIE]);
      clearSessionCookies(reply, cookies);
      return result;
    },
  }),
});
