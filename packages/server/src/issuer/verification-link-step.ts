import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import type { StepContext, StepOutcome } from '../oidc/pages/site.ts';
import { linkConfirmPage, linkUnusablePage, linkVerifiedPage } from '../oidc/pages/verification-views.ts';
import { confirmVerification, findVerificationByToken } from '../people/identity-verifications.repository.ts';
import type { VerificationFlow } from './verification-flow.ts';
import { METHOD_NAMES, verificationEvent } from './verification.ts';

/**
 * `/link`: the emailed link opened (standardEmail). In the browser that holds the interaction it
 * goes on there; in another one, a click confirms it and the first browser goes on.
 */
export async function openLink(
  v: VerificationFlow,
  ctx: StepContext,
  token: string,
  options: { sameBrowser: boolean; confirm: boolean },
): Promise<StepOutcome> {
  const { db, clock, events, projectId, brand } = v.deps;
  const { refs } = v;
  const row = token ? await findVerificationByToken(db, projectId, refs.token(token)) : null;
  const now = clock.now();
  const fail = async (reason: string): Promise<StepOutcome> => {
    await events.refusal(
      ctx.origin,
      verificationEvent('failed', 'verification.failed', row?.identity ?? null, METHOD_NAMES.standardEmail, { reason }),
    );
    return { status: 400, page: linkUnusablePage(brand) };
  };
  // Only a link of this interaction (its address names it), of an emailed link, once, in time.
  if (!row || row.method !== 'standardEmail' || row.interactionRef !== refs.interaction(ctx.uid)) return fail('unknown_link');
  if (row.usedAt) return fail('used');
  if (row.expiresAt.getTime() <= now.getTime()) return fail('expired');
  if (!row.confirmedAt) {
    // In another browser, a click confirms it (a mail scanner fetching links confirms nothing).
    if (!options.sameBrowser && !options.confirm) {
      const device = row.requestedFrom ?? deviceNameFromUserAgent(undefined);
      return { status: 200, page: linkConfirmPage(`${ctx.links.emailPage}/link`, token, { email: row.identity, device }, brand) };
    }
    const confirmed = await db.transaction(async (tx) => {
      if (!(await confirmVerification(tx, { projectId, tokenRef: row.tokenRef, by: 'link', now }))) return false;
      const where = options.sameBrowser ? 'same_browser' : 'other_browser';
      await events.record(
        tx,
        ctx.origin,
        verificationEvent('success', 'verification.confirmed', row.identity, METHOD_NAMES.standardEmail, { where }),
      );
      return true;
    });
    if (!confirmed) return fail('used');
  }
  return options.sameBrowser ? { redirect: v.linksOf(ctx).verified } : { status: 200, page: linkVerifiedPage(brand) };
}
