import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { PASSKEY_SCRIPTS } from '../pages/passkey-views.ts';
import type { FirstPagePasskey, FormBody, StepContext, StepOutcome } from '../pages/site.ts';
import { emailPage, textsOf, type PasskeySignal } from '../pages/views.ts';
import { answeredRpID, checkedAssertion, DISCOVERIES_FAILED_PER_CLIENT, markUsedWithEvent, offeredOptions, parseJson } from '../passkeys.ts';
import { afterCrossDevice } from './new-passkey-step.ts';
import type { PasskeyCeremony } from './ceremony.ts';

/**
 * Passkey first (docs/decisions/0047): where the issuer has a relying party of its own, page 1 asks
 * the browser for any passkey of that relying party — in the identity field's autofill or at the
 * "Sign in with a passkey" button — with no address typed and no allowCredentials. The answer names
 * its credential: found by (project, credential id), its user handle must be its user's, and it is
 * verified under the rpID it was made with. A relying party shared by every project (0013) never
 * gets here: its page 1 asks for the address first.
 */

/** The discoverable request of page 1, its challenge kept in the ceremony cookie; null where the issuer's relying party is shared. */
export async function firstPage(c: PasskeyCeremony, ctx: StepContext): Promise<FirstPagePasskey | null> {
  if (!c.deps.discoverable) return null;
  const options = await generateAuthenticationOptions({ rpID: c.rpID, userVerification: 'required' });
  c.save(ctx, { userId: '', email: '', step: 'discover', challenge: options.challenge });
  // docs/decisions/0049: at a custom domain, also the request for its own rpID (no Related Origin Requests).
  return { ...offeredOptions(c.rp, options, 'get'), action: c.links(ctx).discoverAction, scripts: PASSKEY_SCRIPTS };
}

/**
 * Page 1 again after a failed answer, with `error` and a new request (and `signal` for the browser).
 * Failed answers are limited per client address like page 1's lookups: past the limit, 429.
 */
async function again(c: PasskeyCeremony, ctx: StepContext, error: string, signal?: PasskeySignal): Promise<StepOutcome> {
  if (await c.tooMany(ctx, 'discover', DISCOVERIES_FAILED_PER_CLIENT)) return { status: 429, page: c.tooManyPage(ctx) };
  const passkey = await firstPage(c, ctx);
  return {
    status: 400,
    page: emailPage(ctx.links, { passkeyError: error, ...(passkey ? { passkey: { ...passkey, ...(signal ? { signal } : {}) } } : {}) }, c.deps.brand),
  };
}

export async function discoverSubmit(c: PasskeyCeremony, ctx: StepContext, form: FormBody): Promise<StepOutcome> {
  const { db, clock, store, events, brand } = c.deps;
  const ceremony = c.load(ctx, 'discover');
  if (!c.deps.discoverable || !ceremony?.challenge) return c.startOver(ctx);
  const t = textsOf(brand);
  const response = parseJson<AuthenticationResponseJSON>(form.response);
  const device = typeof response?.id === 'string' ? await store.find(response.id) : null;
  // docs/decisions/0048: at the console's issuer, a passkey of a project on the shared path (same
  // relying party, PUBLIC_URL's host) is refused by name, and never signalled as unknown: the
  // browser would forget a passkey its user still signs in to an application with.
  if (!device && typeof response?.id === 'string' && (await store.heldElsewhere?.(response.id))) {
    await events?.refusal(ctx.origin, c.signInEvent(null, 'failed', { reason: 'other_issuer' }));
    return again(c, ctx, t.passkeyNotForConsole);
  }
  // A credential of this project only (another project's is not found), answered for its own user.
  if (!response || !device || response.response?.userHandle !== c.userHandle(device.userId)) {
    await events?.refusal(ctx.origin, c.signInEvent(null, 'failed', { reason: device ? 'user_handle' : 'unknown_credential' }));
    // The Signal API: a credential the server knows nowhere need not be offered again by this browser.
    const unknown =
      !device && typeof response?.id === 'string'
        ? { signalName: 'unknownCredential' as const, rpID: answeredRpID(c.rp, response.response?.authenticatorData), credentialID: response.id }
        : undefined;
    return again(c, ctx, t.passkeyUnknownHere, unknown);
  }
  const identity = (await store.identityOf?.(device.userId)) ?? device.userId;
  if (device.revoked) return c.refused(ctx, identity, device);
  // Verified under the rpID it was made with, at one of the project's origins.
  const verification = await checkedAssertion(c.rp, device, response, ceremony.challenge);
  if (verification === 'wrongRp') return c.wrongRelyingParty(ctx, identity, device);
  if (!verification) {
    await events?.refusal(ctx.origin, c.signInEvent(identity, 'failed', { reason: 'not_verified' }, device));
    return again(c, ctx, t.passkeyNotVerified);
  }
  // The device's use and its sign-in event commit together (docs/decisions/0014), as after page 1's address.
  const used = await markUsedWithEvent(
    db,
    store,
    events,
    { origin: ctx.origin, event: c.signInEvent(identity, 'success', {}, device) },
    { id: device.id, counter: verification.newCounter, now: clock.now(), backedUp: verification.backedUp },
  );
  if (!used) return c.refused(ctx, identity, device);
  // docs/decisions/0050: a phone's passkey used from here (cross-device): a passkey on this device is offered.
  const offer = afterCrossDevice(c, ctx, device, identity, response.authenticatorAttachment);
  if (offer) return offer;
  c.clear(ctx);
  const signals = await c.signalsAfterSignIn(ctx, device.userId, identity);
  return { accountId: device.userId, deviceId: device.id, ...(signals ? { signals } : {}) };
}
