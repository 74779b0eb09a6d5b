import { randomToken } from '../crypto.ts';
import type { RequestRefusal } from '../oidc/login-codes.service.ts';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import type { Identity, StepContext, StepOutcome } from '../oidc/pages/site.ts';
import { emailPage, errorPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { findVerificationOfInteraction, replaceVerification } from '../people/identity-verifications.repository.ts';
import type { VerificationFlow } from './verification-flow.ts';
import { METHOD_NAMES, VERIFICATION_TTL_MS, verificationEvent } from './verification.ts';

function tooMany(brand: PageBrand, limit: RequestRefusal): string {
  const texts = textsOf(brand).tooManyCodes;
  return limit === 'interaction' ? texts.interaction(textsOf(brand).startAgainAtApp) : texts[limit];
}

/**
 * A user to verify: an emailed code (null: the sign-in pages send it), else a verification stored
 * for this interaction, its link mailed (standardEmail) or its request shown on the waiting page (fullCustom).
 */
export async function startVerification(
  v: VerificationFlow,
  ctx: StepContext,
  identity: Identity,
  options: { resend: boolean },
): Promise<StepOutcome | null> {
  const { db, clock, mailer, loginCodes, events, projectId, settings, site, brand } = v.deps;
  const { t, refs } = v;
  const method = settings.method;
  if (method === 'codeEmail') {
    if (identity.type === 'email') return null;
    // docs/decisions/0018: a code is mailed, and a user id is no address: such a project cannot verify new users.
    await events.refusal(
      ctx.origin,
      verificationEvent('error', 'verification.failed', identity.value, METHOD_NAMES.codeEmail, { reason: 'identity_not_email' }),
    );
    return { status: 403, page: errorPage(t.cannotVerify(brand.name), null, brand) };
  }
  const interactionRef = refs.interaction(ctx.uid);
  const earlier = await findVerificationOfInteraction(db, projectId, interactionRef);
  // The limits of emailed codes, shared with them (a custom request counts as one too: each writes a row and an event).
  const refused = await loginCodes.countSend(identity.value, ctx.uid, ctx.request.ip, earlier?.identity ?? null);
  if (refused) return { status: 429, page: emailPage(ctx.links, { email: identity.value, error: tooMany(brand, refused) }, brand) };

  const token = randomToken(32);
  const now = clock.now();
  await db.transaction(async (tx) => {
    await replaceVerification(tx, {
      tokenRef: refs.token(token),
      projectId,
      interactionRef,
      method,
      identityType: identity.type,
      identity: identity.value,
      requestedFrom: deviceNameFromUserAgent(ctx.request.headers['user-agent']),
      createdAt: now,
      expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS),
    });
    await events.record(tx, ctx.origin, verificationEvent('success', 'verification.sent', identity.value, METHOD_NAMES[method]));
  });
  if (method === 'standardEmail') {
    const link = `${site.origin}${ctx.links.emailPage}/link?token=${token}`;
    try {
      await mailer.sendLoginLink(identity.value, link, v.linkMail(link));
    } catch (error) {
      ctx.request.log.error({ err: error }, 'could not send a sign-in link');
      await events.refusal(
        ctx.origin,
        verificationEvent('error', 'verification.failed', identity.value, METHOD_NAMES[method], { reason: 'mail_failed' }),
      );
      return { status: 503, page: emailPage(ctx.links, { email: identity.value, error: t.linkMailFailed }, brand) };
    }
  }
  return { redirect: `${v.linksOf(ctx).verify}${options.resend ? '?resent=1' : ''}` };
}
