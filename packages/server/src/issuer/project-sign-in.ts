import type { FastifyInstance } from 'fastify';
import { signingKeyGraceSeconds } from '@latchkey/domain';
import { codeSignInEvent, type IssuerEvents } from '../events/end-user-event.ts';
import { issuerSigningKeys } from '../oidc/keys.ts';
import { createLoginCodes } from '../oidc/login-codes.service.ts';
import { blockedPage } from '../oidc/pages/passkey-views.ts';
import { registerSignInPages } from '../oidc/pages/sign-in-pages.ts';
import type { SignInEvents, SignInSite } from '../oidc/pages/site.ts';
import { LATCHKEY_BRAND, type PageBrand } from '../oidc/pages/views.ts';
import type { RecoveryCodeStore } from '../oidc/passkeys.ts';
import { isWatchedFallback } from '../oidc/recovery-codes.ts';
import type { Db } from '../db/db.ts';
import { interactionRefOf } from '../oidc/payloads.repository.ts';
import { findProjectUser, findProjectUserByIdentity, userIdForEmail } from '../people/end-users.repository.ts';
import { accountRecovery, recoveryStopUrl, type AccountRecovery } from '../people/account-recovery.ts';
import { projectImportedPasswords } from './imported-passwords.ts';
import { issuerAt } from './custom-domains.ts';
import { MOUNT_ROUTE, type IssuerFlow } from './issuer-flow.ts';
import { findIssuerState } from './issuer-state.repository.ts';
import { codeMail, projectBrand, startAgain } from './project-pages.ts';
import { projectPasskeys } from './project-passkeys.ts';
import { projectVerification } from './project-verification.ts';
import { verificationSettingsOf, withIdentity } from './verification.ts';

/** The events of the sign-in pages' own steps at a project's issuer (docs/decisions/0014). */
function signInEvents(events: IssuerEvents): SignInEvents {
  return {
    refused: async (origin) => {
      await events.refusal(origin, { scope: 'oidc', status: 'disabled', action: 'sign_in', userId: null });
    },
    // `method`: the emailed code, or the link or custom verification that stood for it (docs/decisions/0018).
    signedInWithCode: (origin, email, _accountId, method = 'email_code') =>
      events.recordNow(origin, { ...codeSignInEvent(email), details: { method } }),
    codeRefused: async (origin, email, reason) => {
      await events.refusal(origin, { scope: 'oidc', status: 'failed', action: 'sign_in', userId: email, details: { method: 'email_code', reason } });
    },
    mailFailed: async (origin, email) => {
      await events.refusal(origin, {
        scope: 'oidc',
        status: 'error',
        action: 'sign_in',
        userId: email,
        details: { method: 'email_code', reason: 'mail_failed' },
      });
    },
  };
}

/** docs/decisions/0051: the project's recovery codes as its sign-in page's "Use a recovery code" uses them. */
function recoveryCodeStore(db: Db, projectId: string, recovery: AccountRecovery, brand: PageBrand): RecoveryCodeStore {
  return {
    personOf: (identity) => findProjectUserByIdentity(db, projectId, identity),
    async use(userId, code, origin) {
      const user = await findProjectUser(db, projectId, userId);
      return user ? recovery.useCode({ projectId, ...user }, code, origin, brand) : null;
    },
  };
}

/** docs/decisions/0051: recovery codes at sign-in, the notice of an email-only sign-in. */
function recoveryOf(flow: IssuerFlow): AccountRecovery {
  const { deps } = flow;
  return accountRecovery({
    db: deps.db,
    clock: deps.clock,
    secretBox: deps.secretBox,
    mailer: deps.mailer,
    eventsOf: (id) => flow.eventsOf(id),
    warn: (error) => deps.warn(error),
  });
}

/**
 * A project's sign-in pages (oidc/pages/sign-in-pages.ts) as its issuer sets them: its brand and
 * language, its identity type and verification method, its passkeys and QuickCodes, its refusals.
 */
export async function registerProjectSignInPages(app: FastifyInstance, flow: IssuerFlow): Promise<void> {
  const { deps } = flow;
  const { db, secretBox, publicUrl } = deps;
  const recovery = recoveryOf(flow);
  await registerSignInPages(app, {
    mountRoute: MOUNT_ROUTE,
    publicUrl,
    fallback: { brand: LATCHKEY_BRAND, home: null, startAgain: startAgain(LATCHKEY_BRAND) },
    async site(request, interactionOf): Promise<SignInSite> {
      // The page's interaction is read ahead with the state (one statement, not two).
      const uid = request.params.uid;
      const state = await findIssuerState(db, request.params.project ?? '', uid ? interactionRefOf(secretBox, uid) : undefined);
      if (!state) throw Object.assign(new Error('no such project'), { name: 'SessionNotFound' });
      const { projectId } = state;
      // docs/decisions/0016: the pages of a project with a custom domain exist on that domain only.
      const at = issuerAt(request.raw, state, publicUrl);
      if (at === null || 'movedTo' in at) throw Object.assign(new Error('not this address'), { name: 'SessionNotFound' });
      const { mountPath, origin } = at.site;
      // docs/decisions/0018: page 1 asks for the project's identity type; new users verify by its method.
      const verification = verificationSettingsOf(state);
      const provider = await flow.providerFor(state);
      // The authorization request's ui_locales chooses the pages' language before the browser's.
      const uiLocales = (await interactionOf(provider))?.params.ui_locales;
      const brand = withIdentity(projectBrand(state, flow.pageRequest(request, uiLocales)), verification, state.identityTypeLabel !== '');
      const events = flow.eventsOf(projectId);
      const loginCodes = createLoginCodes(deps, projectId, codeMail(brand));
      return {
        provider,
        loginCodes,
        mountPath,
        brand,
        home: null,
        startAgain: startAgain(brand),
        // spec §2: a user who presses Cancel returns to the client with error=consent_required.
        cancelError: 'consent_required',
        accountFor: (email) => userIdForEmail(db, { projectId, email, now: deps.clock.now() }),
        refusal: (details) => flow.refusalFor(state, details.params.client_id, brand),
        async refuseAccount(ctx, accountId) {
          const user = await findProjectUser(db, projectId, accountId);
          if (!user?.blocked) return null;
          await events.refusal(ctx.origin, {
            scope: 'oidc',
            status: 'denied',
            action: 'sign_in',
            userId: user.identity,
            details: { reason: 'user_blocked' },
          });
          return blockedPage(ctx.links, brand);
        },
        async afterFallbackSignIn(ctx, accountId, method) {
          // An emailed code or link, or the project's own verification (a recovery code or an
          // imported password is not watched: docs/decisions/0051, 0052).
          if (!isWatchedFallback(method)) return;
          const user = await findProjectUser(db, projectId, accountId);
          if (!user) return;
          const context = { delayMs: state.emailRecoveryDelayMs, stopUrl: recoveryStopUrl(at.site.issuer), origin: ctx.origin, brand };
          if (method === 'custom') await recovery.customSignIn({ projectId, ...user }, context);
          else await recovery.emailSignIn({ projectId, ...user }, context);
        },
        passkeys: projectPasskeys({
          db,
          clock: deps.clock,
          secretBox,
          publicUrl: origin,
          projectId,
          mountPath,
          brand,
          events,
          quickCodes: state.quickCodes,
          login: state.login,
          relyingParty: {
            rpID: at.site.rpID,
            origins: at.site.origins,
            legacyRpID: new URL(publicUrl).hostname,
            localRpID: at.site.localRpID,
          },
          // docs/decisions/0047: a relying party of the project's own: passkey first, page 1 tells nothing.
          discoverable: state.ownOrigin !== null,
          enrollment: state.passkeyEnrollment,
          emailRecoveryDelayMs: state.emailRecoveryDelayMs,
          recoveryCodes: recoveryCodeStore(db, projectId, recovery, brand),
        }),
        events: signInEvents(events),
        // docs/decisions/0052: imported people may use their previous password once (email identities only).
        ...(verification.identityType === 'email' ? { importedPasswords: projectImportedPasswords({ db, clock: deps.clock, projectId }) } : {}),
        verification: projectVerification({
          db,
          clock: deps.clock,
          secretBox,
          mailer: deps.mailer,
          loginCodes,
          events,
          projectId,
          settings: verification,
          site: at.site,
          brand,
          signingKeys: () => issuerSigningKeys(db, secretBox, projectId, state.issuer.id_token_signing_alg, signingKeyGraceSeconds(state.issuer)),
        }),
      };
    },
  });
}
