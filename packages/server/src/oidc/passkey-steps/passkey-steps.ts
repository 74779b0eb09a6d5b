import type { PasskeySteps } from '../pages/site.ts';
import { PasskeyCeremony, type PasskeyStepsDeps } from './ceremony.ts';
import { afterCode, registerPageStep, registerSubmit } from './new-passkey-step.ts';
import { quickCodePage, quickCodeSubmit } from './quick-code-step.ts';
import { discoverSubmit, firstPage } from './discover-passkey-step.ts';
import { recoveryLinkText, recoveryPage, recoverySubmit } from './recovery-code-step.ts';
import { afterEmail, passkeyPageStep, passkeySubmit, quickCodeContinue } from './use-passkey-step.ts';

/**
 * One issuer's passkey steps (docs/decisions/0013, 0027): a project's or the console's. A passkey is
 * a credential of this issuer: options list only the user's non-revoked credentials here, and an
 * answer is checked against the passkey the issuer's store finds by credential id, so another
 * issuer's passkey is never offered or taken.
 *
 * One file a ceremony: using a passkey (use-passkey-step.ts), creating one (new-passkey-step.ts),
 * entering a QuickCode (quick-code-step.ts); what they share is the ceremony (ceremony.ts).
 */
export function passkeySteps(deps: PasskeyStepsDeps): PasskeySteps {
  const c = new PasskeyCeremony(deps);
  return {
    afterEmail: (ctx, email, identityType) => afterEmail(c, ctx, email, identityType),
    afterCode: (ctx, accountId, email, verifiedBy) => afterCode(c, ctx, accountId, email, verifiedBy),
    passkeyPage: (ctx) => passkeyPageStep(c, ctx),
    passkeySubmit: (ctx, form) => passkeySubmit(c, ctx, form),
    firstPage: (ctx) => firstPage(c, ctx),
    discoverSubmit: (ctx, form) => discoverSubmit(c, ctx, form),
    quickCodes: deps.quickCodes.enabled,
    quickCodePage: (ctx) => quickCodePage(c, ctx),
    quickCodeSubmit: (ctx, form) => quickCodeSubmit(c, ctx, form),
    quickCodeContinue: (ctx) => quickCodeContinue(c, ctx),
    recoveryLink: recoveryLinkText(c),
    recoveryPage: (ctx) => recoveryPage(c, ctx),
    recoverySubmit: (ctx, form) => recoverySubmit(c, ctx, form),
    registerPage: (ctx) => registerPageStep(c, ctx),
    registerSubmit: (ctx, form) => registerSubmit(c, ctx, form),
  };
}
