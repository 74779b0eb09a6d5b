import type { VerificationSteps } from '../oidc/pages/site.ts';
import { VerificationFlow, type VerificationDeps } from './verification-flow.ts';
import { openLink } from './verification-link-step.ts';
import { startVerification } from './verification-start-step.ts';
import { resumeVerified, verificationStatus, waitPage } from './verification-wait-step.ts';
import { identityOf } from './verification.ts';

/**
 * One project's verification steps for the sign-in pages (oidc/pages/site.ts VerificationSteps),
 * one file a step: starting one (verification-start-step.ts), waiting for it and going on
 * (verification-wait-step.ts), the emailed link opened (verification-link-step.ts).
 */
export function projectVerification(deps: VerificationDeps): VerificationSteps {
  const v = new VerificationFlow(deps);
  return {
    identityOf: (typed) => identityOf(deps.settings.identityType, typed),
    invalidIdentity: deps.settings.identityType === 'alphanumeric' ? v.t.invalidUserId : v.t.invalidEmail,
    start: (ctx, identity, options) => startVerification(v, ctx, identity, options),
    waitPage: (ctx) => waitPage(v, ctx),
    status: (ctx) => verificationStatus(v, ctx),
    resume: (ctx) => resumeVerified(v, ctx),
    openLink: (ctx, token, options) => openLink(v, ctx, token, options),
  };
}
