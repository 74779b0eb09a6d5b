import { randomToken } from '../crypto.ts';
import type { StepContext, StepOutcome } from '../oidc/pages/site.ts';
import { customPage, linkWaitPage } from '../oidc/pages/verification-views.ts';
import { errorPage } from '../oidc/pages/views.ts';
import { userIdForIdentity } from '../people/end-users.repository.ts';
import {
  findVerificationOfInteraction,
  renewVerificationToken,
  useVerification,
  type IdentityType,
} from '../people/identity-verifications.repository.ts';
import type { VerificationFlow } from './verification-flow.ts';
import { signVerificationRequest } from './verification-request.ts';
import { METHOD_NAMES, VERIFICATION_TTL_MS, withParameter } from './verification.ts';

/**
 * Waiting for a verification under way: the page (the link not opened yet, or the way to the
 * project's own verification), its script's question, and the sign-in going on once it is confirmed.
 */

/** The custom page: a fresh signed request (the one shown before stops working) in the project's verification address. */
async function showCustomPage(
  v: VerificationFlow,
  ctx: StepContext,
  identity: { value: string; type: IdentityType },
  error?: string,
): Promise<StepOutcome> {
  const { db, clock, projectId, settings, site, brand } = v.deps;
  const { t, refs } = v;
  if (!settings.url) return { status: 503, page: errorPage(t.serverError(t.startAgainAtApp), null, brand) };
  const now = clock.now();
  const jti = randomToken(32);
  const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
  const renewed = await renewVerificationToken(db, { projectId, interactionRef: refs.interaction(ctx.uid), tokenRef: refs.token(jti), expiresAt });
  if (!renewed) return v.startOver(ctx);
  const [key] = await v.deps.signingKeys();
  if (!key) throw new Error('the project has no signing key');
  const request = signVerificationRequest(key, {
    iss: site.issuer,
    aud: ctx.origin.clientId ?? '',
    iat: Math.floor(now.getTime() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
    jti,
    user_id: identity.value,
    identity_type: identity.type,
    continue_to: `${site.origin}${v.linksOf(ctx).verified}`,
  });
  const href = withParameter(settings.url, 'request', request);
  if (href === null) return { status: 503, page: errorPage(t.serverError(t.startAgainAtApp), null, brand) };
  return { status: error ? 400 : 200, page: customPage(ctx.links, { href, customText: settings.customText, ...(error ? { error } : {}) }, brand) };
}

/** `/verify`: waiting for the link to be opened, or the way to the project's verification. */
export async function waitPage(v: VerificationFlow, ctx: StepContext): Promise<StepOutcome> {
  const { db, clock, projectId, brand } = v.deps;
  const { t } = v;
  const row = await findVerificationOfInteraction(db, projectId, v.refs.interaction(ctx.uid));
  if (!row || row.usedAt || row.expiresAt.getTime() <= clock.now().getTime()) return v.startOver(ctx);
  if (row.confirmedAt) return { redirect: v.linksOf(ctx).verified };
  const pending = v.query(ctx).pending !== undefined;
  if (row.method === 'fullCustom') {
    return showCustomPage(v, ctx, { value: row.identity, type: row.identityType }, pending ? t.customNotConfirmed : undefined);
  }
  const page = linkWaitPage(
    v.linksOf(ctx),
    { email: row.identity, ...(v.query(ctx).resent ? { notice: t.newLinkSent } : {}), ...(pending ? { error: t.linkNotOpened } : {}) },
    brand,
  );
  return { status: 200, page };
}

/** `/verify/status`: the waiting page's script asks whether the verification was confirmed. */
export async function verificationStatus(v: VerificationFlow, ctx: StepContext): Promise<StepOutcome> {
  const row = await findVerificationOfInteraction(v.deps.db, v.deps.projectId, v.refs.interaction(ctx.uid));
  return { status: 200, json: { confirmed: row !== null && row.confirmedAt !== null && row.usedAt === null } };
}

/** `/verified`: the interaction goes on with its confirmed verification. */
export async function resumeVerified(v: VerificationFlow, ctx: StepContext): Promise<StepOutcome> {
  const { db, clock, projectId } = v.deps;
  const interactionRef = v.refs.interaction(ctx.uid);
  const now = clock.now();
  // Used once, and the user it names found or created, in one transaction.
  const verified = await db.transaction(async (tx) => {
    const used = await useVerification(tx, { projectId, interactionRef, now });
    if (!used) return null;
    const accountId = await userIdForIdentity(tx, { projectId, identity: { type: used.identityType, value: used.identity }, now });
    return { accountId, identity: used.identity, method: METHOD_NAMES[used.method] };
  });
  if (verified) return { verified };
  const row = await findVerificationOfInteraction(db, projectId, interactionRef);
  if (row && !row.confirmedAt && row.expiresAt.getTime() > now.getTime()) return { redirect: `${v.linksOf(ctx).verify}?pending=1` };
  return v.startOver(ctx);
}
