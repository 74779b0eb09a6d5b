import type { FastifyInstance } from 'fastify';
import { decodeUtf8Strictly } from '../../http/input-guard.ts';
import { hideFromOpenApi, pinToPublicUrl, signInCsp, strictTransportFor } from '../mount.ts';
import { registerCodeStep } from './code-step.ts';
import { InteractionGone, SignInFlow, type SiteOf, type UidRequest } from './flow.ts';
import { registerIdentityStep } from './identity-step.ts';
import { registerPasskeyStep } from './passkey-step.ts';
import { registerPasswordStep } from './password-step.ts';
import type { SignInSite } from './site.ts';
import { registerVerificationStep } from './verification-step.ts';
import { errorPage, textsOf } from './views.ts';

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
 * The pages take forms only: a JSON body (whose fields need not be strings) is a 415, not a 500; a
 * form that is not valid percent-encoded UTF-8 is a 400. A passkey's registration answer is a few
 * kilobytes of JSON, urlencoded: 16 KiB is the most a form may be.
 */
export function takeFormsOnly(pages: FastifyInstance): void {
  pages.removeAllContentTypeParsers();
  pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'buffer', bodyLimit: 16_384 }, (_request, body, done) => {
    // Raw bytes that are not UTF-8 are refused too, not read as U+FFFD.
    const text = decodeUtf8Strictly(body as Buffer);
    const form = text === null ? null : parseFormStrictly(text);
    if (form) done(null, form);
    else done(Object.assign(new Error('The form is not valid percent-encoded UTF-8'), { statusCode: 400 }), undefined);
  });
}

/**
 * Serves the interaction pages of the issuers mounted under `mountRoute` (`/idp`, `/p/:project`),
 * one file a step: the identity (identity-step.ts), the emailed code (code-step.ts), a link or
 * custom verification (verification-step.ts), the passkey and QuickCode pages (passkey-step.ts);
 * a refusal is the site's own page (flow.ts loginStep); Cancel is here. `site` tells, per request,
 * which issuer and how the pages read.
 */
export async function registerSignInPages(
  app: FastifyInstance,
  options: {
    mountRoute: string;
    publicUrl: string;
    fallback: Pick<SignInSite, 'brand' | 'home' | 'startAgain'>;
    site: SiteOf;
  },
): Promise<void> {
  const origin = new URL(options.publicUrl);
  const flow = new SignInFlow(options.site);
  const base = `${options.mountRoute}/interaction/:uid`;

  await app.register(async (ui) => {
    hideFromOpenApi(ui);
    ui.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    takeFormsOnly(ui);
    ui.addHook('onSend', async (request, reply, payload) => {
      reply.header('Content-Security-Policy', signInCsp(flow.returnsTo.get(request), flow.sites.get(request)?.brand.logo?.origin));
      if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
      strictTransportFor(request, reply, origin);
      return payload;
    });
    ui.setErrorHandler(async (error, request, reply) => {
      const { brand, home, startAgain } = flow.sites.get(request) ?? options.fallback;
      // A request refused before any page logic (the input guard, a malformed form) keeps its 4xx.
      const status = (error as { statusCode?: unknown; status?: unknown }).statusCode ?? (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && !(error instanceof InteractionGone)) {
        return reply
          .status(status)
          .type('text/html; charset=utf-8')
          .send(errorPage(textsOf(brand).badAddress(startAgain), home, brand));
      }
      const gone = error instanceof InteractionGone || (error as { name?: string }).name === 'SessionNotFound';
      if (!gone) request.log.error({ err: error }, 'sign-in interaction failed');
      const message = gone ? textsOf(brand).expired(startAgain) : textsOf(brand).serverError(startAgain);
      return reply
        .status(gone ? 400 : 500)
        .type('text/html; charset=utf-8')
        .send(errorPage(message, home, brand));
    });

    registerIdentityStep(ui, flow, base);
    registerCodeStep(ui, flow, base);
    registerPasswordStep(ui, flow, base);
    registerVerificationStep(ui, flow, base);
    registerPasskeyStep(ui, flow, base);

    // "Cancel": the client receives the site's cancel error at its redirect URI.
    ui.get(`${base}/cancel`, async (request: UidRequest, reply) => {
      const site = await flow.siteOf(request, reply);
      await flow.interaction(site, request, reply);
      return flow.finish(site, request, reply, { error: site.cancelError, error_description: 'The sign-in was cancelled' });
    });
  });
}
