import type { FastifyInstance } from 'fastify';
import { DomainError, errorStatus } from '@latchkey/domain';
import { guardFormFields } from '../http/input-guard.ts';
import { brandCsp, refusalPage, startAgain } from '../issuer/project-pages.ts';
import { hideFromOpenApi, pinToPublicUrl, strictTransportFor } from '../oidc/mount.ts';
import { takeFormsOnly } from '../oidc/pages/sign-in-pages.ts';
import { errorPage, textsOf } from '../oidc/pages/views.ts';
import { AccountFlow } from './account-flow.ts';
import { FALLBACK_BRAND, html, PageAnswer, type AccountPagesDeps } from './account-site.ts';
import { registerNewPasskeyStep } from './new-passkey-step.ts';
import { registerPasskeysStep } from './passkeys-step.ts';
import { registerQuickCodeStep } from './quick-code-step.ts';
import { registerSessionsStep } from './sessions-step.ts';
import { registerSignInStep } from './sign-in-step.ts';
import { registerRecoveryCodesStep } from './recovery-codes-step.ts';
import { registerRecoveryStopStep } from './recovery-stop-step.ts';
import { registerReenrollStep } from './reenroll-step.ts';

/**
 * The end user's own page at a project's issuer, `{issuer}/account` (issue 24, docs/decisions/0040):
 * their passkeys (rename, add one, get a QuickCode for another device, remove), the sessions they
 * are signed in with (sign out of one, of the others, here).
 *
 * The page signs in as any application does, through the issuer's own authorization endpoint, as a
 * client every project's issuer has (ACCOUNT_CLIENT_ID, redirected to `{issuer}/account/callback`):
 * so the sign-in is the project's own — passkey first for a user who has one, its verification
 * method otherwise, QuickCodes, a blocked user refused, its events. The page then reads the
 * browser's provider session (the issuer's session cookie) on every request: signing out at the
 * issuer, revoking the passkey it began with or blocking the user ends it here too. Each change is
 * a form posted with a token bound to that session, in one transaction with its audit event.
 *
 * One file a page, as the sign-in pages: the page and its passkeys (passkeys-step.ts), creating one
 * (new-passkey-step.ts), a QuickCode (quick-code-step.ts), the sessions and signing out
 * (sessions-step.ts), the end of the sign-in (sign-in-step.ts); what they share is the project the
 * request reached (account-site.ts) and the person signed in (account-flow.ts).
 */
export async function registerAccountPages(app: FastifyInstance, deps: AccountPagesDeps): Promise<void> {
  const origin = new URL(deps.publicUrl);
  const flow = new AccountFlow(deps, app.log);
  const page = `/p/:project/account`;

  await app.register(async (pages) => {
    hideFromOpenApi(pages);
    takeFormsOnly(pages);
    guardFormFields(pages);
    pages.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    pages.addHook('onSend', async (request, reply, payload) => {
      const brand = flow.sites.get(request)?.brand;
      reply.header('Content-Security-Policy', brandCsp(brand ?? { name: '', idLabel: '', language: 'en' }));
      reply.header('Cache-Control', 'no-store');
      strictTransportFor(request, reply, origin);
      return payload;
    });
    pages.setErrorHandler(async (error, request, reply) => {
      const brand = flow.sites.get(request)?.brand ?? FALLBACK_BRAND;
      if (error instanceof PageAnswer) return html(reply, error.status, error.html);
      const t = textsOf(brand);
      // What Fastify refused (a malformed form, one too large, not a form) keeps its 4xx.
      const status = (error as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500)
        return html(reply, status, errorPage(t.badAddress(startAgain(brand)), null, brand));
      if (error instanceof DomainError && error.code === 'project_closed') return html(reply, 403, refusalPage(brand, 'closed'));
      // The project or what the form named went meanwhile (another tab, an administrator).
      if (error instanceof DomainError && errorStatus[error.code] < 500) {
        return html(reply, errorStatus[error.code], errorPage(t.badAddress(startAgain(brand)), null, brand));
      }
      request.log.error({ err: error }, 'account page failed');
      return html(reply, 500, errorPage(t.serverError(startAgain(brand)), null, brand));
    });

    registerPasskeysStep(pages, flow, page);
    registerNewPasskeyStep(pages, flow, page);
    registerQuickCodeStep(pages, flow, page);
    registerSessionsStep(pages, flow, page);
    registerSignInStep(pages, flow, page);
    // Account recovery (issue 37, docs/decisions/0051).
    registerRecoveryCodesStep(pages, flow, page);
    registerRecoveryStopStep(pages, flow, page);
    registerReenrollStep(pages, flow, page);
  });
}
