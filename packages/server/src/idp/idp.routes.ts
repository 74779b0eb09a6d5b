import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import { decodeUtf8Strictly } from '../http/input-guard.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';
import type { LoginCodes, RequestRefusal, VerifyCodeResult } from './login-codes.service.ts';
import { IDP_CSP, IDP_PATH, IDP_SCOPES } from './provider.ts';
import { codePage, emailPage, errorPage, STYLESHEET, STYLESHEET_PATH, type InteractionLinks } from './views.ts';

export interface IdpRoutesDeps {
  provider: Provider;
  loginCodes: LoginCodes;
  publicUrl: string;
}

/**
 * The provider builds its URLs and decides on Secure cookies from the request (Host,
 * X-Forwarded-Proto/-Host, with provider.proxy). Those are pinned to PUBLIC_URL here, so neither a
 * forged Host nor a forged X-Forwarded-Proto changes the issuer's endpoints or the cookies; the
 * client address is the one Fastify established under TRUST_PROXY.
 */
function pinToPublicUrl(request: FastifyRequest, publicUrl: URL): void {
  const headers = request.raw.headers;
  const clientIp = request.ip;
  delete headers.forwarded;
  headers.host = publicUrl.host;
  headers['x-forwarded-host'] = publicUrl.host;
  headers['x-forwarded-proto'] = publicUrl.protocol.slice(0, -1);
  headers['x-forwarded-for'] = clientIp;
}

const TOO_MANY_CODES: Record<RequestRefusal, string> = {
  interaction: 'Too many codes were requested in this sign-in. Start again from the console.',
  address: 'Too many codes were requested for this address. Wait a few minutes, then try again.',
  client: 'Too many codes were requested from your network. Wait a few minutes, then try again.',
};

type FormBody = Record<string, string | undefined>;
type UidRequest = FastifyRequest<{ Params: { uid: string }; Body: FormBody; Querystring: Record<string, string | undefined> }>;

function linksFor(uid: string): InteractionLinks {
  const base = `${IDP_PATH}/interaction/${encodeURIComponent(uid)}`;
  return { emailAction: `${base}/email`, codeAction: `${base}/code`, emailPage: base, cancel: `${base}/cancel` };
}

const CODE_ERRORS: Record<Exclude<VerifyCodeResult, { ok: true }>['reason'], string> = {
  none: 'Ask for a new code.',
  used: 'That code has already been used. Ask for a new one.',
  expired: 'That code has expired. Ask for a new one.',
  too_many: 'Too many wrong codes. Ask for a new one.',
  address_locked: 'Too many tries for this address. Wait an hour, then ask for a new code.',
  wrong: 'That code is not right',
};

class InteractionGone extends Error {}

/**
 * A urlencoded form, or null when a name or value is not valid percent-encoded UTF-8 (URLSearchParams
 * would turn it into U+FFFD silently). Each field's own check (isEmail, the code's digits) refuses
 * control characters with a message on the page.
 */
function parseFormStrictly(body: string): Record<string, string> | null {
  const form: Record<string, string> = {};
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    try {
      const name = decodeURIComponent((equals === -1 ? pair : pair.slice(0, equals)).replaceAll('+', ' '));
      const value = equals === -1 ? '' : decodeURIComponent(pair.slice(equals + 1).replaceAll('+', ' '));
      form[name] = value;
    } catch {
      return null;
    }
  }
  return form;
}

/**
 * Mounts the built-in provider under /idp and serves its interaction pages (sign in with an
 * emailed code). The provider reads its own request bodies, so its routes get the raw request
 * (reply.hijack) and no body parser; only our small forms are parsed here.
 */
export async function registerIdpRoutes(app: FastifyInstance, { provider, loginCodes, publicUrl }: IdpRoutesDeps): Promise<void> {
  const home = `${publicUrl}/`;
  const origin = new URL(publicUrl);
  const https = origin.protocol === 'https:';
  const callback = provider.callback();
  // The provider and its pages are not part of the management API document.
  const hidden = (context: FastifyInstance) =>
    context.addHook('onRoute', (route) => {
      route.schema = { ...route.schema, hide: true } as typeof route.schema;
    });

  await app.register(async (raw) => {
    hidden(raw);
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    raw.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    raw.all(`${IDP_PATH}/*`, async (request, reply) => {
      reply.hijack();
      const req = request.raw as IncomingMessage & { originalUrl?: string };
      // oidc-provider derives its mount path from originalUrl minus url (its "mounting" docs).
      req.originalUrl = req.url;
      req.url = (req.url ?? '/').slice(IDP_PATH.length) || '/';
      setSecurityHeaders(reply.raw, IDP_CSP, { https });
      await callback(req, reply.raw);
    });
  });

  await app.register(async (ui) => {
    hidden(ui);
    ui.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    ui.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 4096 }, (_request, body, done) => {
      // Raw bytes that are not UTF-8 are refused too, not read as U+FFFD.
      const text = decodeUtf8Strictly(body as Buffer);
      const form = text === null ? null : parseFormStrictly(text);
      if (form) done(null, form);
      else done(Object.assign(new Error('The form is not valid percent-encoded UTF-8'), { statusCode: 400 }), undefined);
    });
    ui.addHook('onSend', async (_request, reply, payload) => {
      reply.header('Content-Security-Policy', IDP_CSP);
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
      return payload;
    });
    ui.setErrorHandler(async (error, request, reply) => {
      // A request refused before any page logic (the input guard, a malformed form) keeps its 4xx.
      const status = (error as { statusCode?: unknown; status?: unknown }).statusCode ?? (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof InteractionGone)) {
        return reply
          .status(status)
          .type('text/html; charset=utf-8')
          .send(errorPage('This address is not valid. Start again from the console.', home));
      }
      const gone = error instanceof InteractionGone || (error as { name?: string }).name === 'SessionNotFound';
      if (!gone) request.log.error({ err: error }, 'sign-in interaction failed');
      const message = gone
        ? 'This sign-in has expired or was opened in another browser. Start again from the console.'
        : 'Something went wrong on our side. Start again from the console.';
      return reply
        .status(gone ? 400 : 500)
        .type('text/html; charset=utf-8')
        .send(errorPage(message, home));
    });

    const page = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);

    /** The interaction this browser is in, matching the address (the provider's cookie is the CSRF guard). */
    async function interaction(request: UidRequest, reply: FastifyReply): Promise<Interaction> {
      const details = await provider.interactionDetails(request.raw, reply.raw);
      if (details.uid !== request.params.uid) throw new InteractionGone();
      return details;
    }

    /** Resumes the authorization request with `result` (login, consent or an OAuth error). */
    async function finish(request: UidRequest, reply: FastifyReply, result: Parameters<Provider['interactionResult']>[2]) {
      const returnTo = await provider.interactionResult(request.raw, reply.raw, result, { mergeWithLastSubmission: false });
      return reply.redirect(returnTo, 303);
    }

    /** Consent is implied for the console, the provider's only (first-party) client. */
    async function grantFor(details: Interaction, accountId: string): Promise<string> {
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
      const target = grant ?? new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      const requested = String(details.params.scope ?? 'openid').split(' ');
      target.addOIDCScope(requested.filter((s) => (IDP_SCOPES as readonly string[]).includes(s)).join(' '));
      return target.save();
    }

    ui.get(STYLESHEET_PATH, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(STYLESHEET),
    );

    // Page 1: the email address.
    ui.get(`${IDP_PATH}/interaction/:uid`, async (request: UidRequest, reply) => {
      const details = await interaction(request, reply);
      if (details.prompt.name === 'consent' && details.session?.accountId) {
        const grantId = await grantFor(details, details.session.accountId);
        return finish(request, reply, { consent: { grantId } });
      }
      if (details.prompt.name !== 'login') throw new InteractionGone();
      const email = (await loginCodes.pendingEmail(details.uid)) ?? '';
      return page(reply, 200, emailPage(linksFor(details.uid), { email }));
    });

    ui.post(`${IDP_PATH}/interaction/:uid/email`, async (request: UidRequest, reply) => {
      const details = await interaction(request, reply);
      if (details.prompt.name !== 'login') throw new InteractionGone();
      const links = linksFor(details.uid);
      const email = (request.body?.email ?? '').trim().toLowerCase();
      if (!email || email.length > TEXT_MAX_LENGTH || !isEmail(email)) {
        return page(reply, 400, emailPage(links, { email, error: 'Enter a valid email address' }));
      }
      // Every well-formed address gets a code: whether it has an account is decided later, by the
      // console, so this page reveals nothing about who is registered.
      const sent = await loginCodes.request(email, details.uid, request.ip);
      if (!sent.ok && sent.reason === 'mail_failed') {
        request.log.error({ err: sent.error }, 'could not send a sign-in code');
        return page(reply, 503, emailPage(links, { email, error: 'We could not send the code. Try again in a moment.' }));
      }
      if (!sent.ok) {
        return page(reply, 429, emailPage(links, { email, error: TOO_MANY_CODES[sent.limit] }));
      }
      return reply.redirect(`${links.codeAction}${request.body?.resend ? '?resent=1' : ''}`, 303);
    });

    /**
     * The code page's interaction: in the login prompt, with a code sent to an address during it;
     * null when no code was sent yet (the browser goes back to page 1).
     */
    async function codeStep(
      request: UidRequest,
      reply: FastifyReply,
    ): Promise<{ details: Interaction; links: InteractionLinks; email: string } | null> {
      const details = await interaction(request, reply);
      if (details.prompt.name !== 'login') throw new InteractionGone();
      const email = await loginCodes.pendingEmail(details.uid);
      return email ? { details, links: linksFor(details.uid), email } : null;
    }

    // Page 2: the code.
    ui.get(`${IDP_PATH}/interaction/:uid/code`, async (request: UidRequest, reply) => {
      const step = await codeStep(request, reply);
      if (!step) return reply.redirect(linksFor(request.params.uid).emailPage, 303);
      const { links, email } = step;
      const notice = request.query.resent ? 'We sent a new code. Earlier codes no longer work.' : undefined;
      return page(reply, 200, codePage(links, { email, ...(notice ? { notice } : {}) }));
    });

    ui.post(`${IDP_PATH}/interaction/:uid/code`, async (request: UidRequest, reply) => {
      const step = await codeStep(request, reply);
      if (!step) return reply.redirect(linksFor(request.params.uid).emailPage, 303);
      const { details, links, email } = step;
      const code = (request.body?.code ?? '').replace(/\s+/g, '');
      if (!/^\d{6}$/.test(code)) return page(reply, 400, codePage(links, { email, error: 'Enter the 6-digit code from the email' }));

      const result = await loginCodes.verify(details.uid, code, request.ip);
      if (!result.ok) {
        if (result.reason === 'none') return reply.redirect(links.emailPage, 303);
        const error =
          result.reason === 'wrong' && result.attemptsLeft === 0 ? 'That code is not right. Ask for a new one.' : CODE_ERRORS[result.reason];
        return page(reply, 400, codePage(links, { email, error }));
      }
      const grantId = await grantFor(details, result.email);
      return finish(request, reply, { login: { accountId: result.email }, consent: { grantId } });
    });

    // "Cancel": the console receives error=access_denied at /login.
    ui.get(`${IDP_PATH}/interaction/:uid/cancel`, async (request: UidRequest, reply) => {
      await interaction(request, reply);
      return finish(request, reply, { error: 'access_denied', error_description: 'The sign-in was cancelled' });
    });
  });
}
