import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { codeSignInEvent as codeSignIn } from '../../events/end-user-event.ts';
import { deviceNameFromUserAgent } from '../device-name.ts';
import { registerPage } from '../pages/passkey-views.ts';
import type { FormBody, StepContext, StepOutcome } from '../pages/site.ts';
import { textsOf } from '../pages/views.ts';
import { knownTransports, offeredOptions, parseJson, registrationOptions, rpIdOf, verifiedRegistration } from '../passkeys.ts';
import { activeOf, type Ceremony, type PasskeyCeremony } from './ceremony.ts';

/**
 * Creating a passkey once the identity was verified (an emailed code, a link, a QuickCode): offered
 * to a user without one; "Not now" signs them in without it.
 */

/** How a person who signed in with an imported password (docs/decisions/0052) came to the offer. */
export const IMPORTED_PASSWORD = 'imported_password';

/** The code (or `verifiedBy`, docs/decisions/0018) verified the user `accountId`: a user without a passkey is offered one. */
export async function afterCode(
  c: PasskeyCeremony,
  ctx: StepContext,
  accountId: string,
  email: string,
  verifiedBy = 'email_code',
): Promise<StepOutcome | null> {
  const { store } = c.deps;
  // docs/decisions/0047: a passkey for this relying party; one made under another (the shared host
  // before an issuer move) is not offered here, so the user is offered one for this one. 0049: at a
  // custom domain with an own host, one for the custom domain's rpID: the server cannot tell whether
  // this browser could have used the own host's there (Related Origin Requests), and one that could
  // has its own host's passkey excluded from the new one's creation.
  const wanted = c.rp.localRpID ?? c.rpID;
  if (activeOf(await store.passkeysOf(accountId)).some((p) => rpIdOf(c.rp, p) === wanted)) return null;
  if (store.mayRegister && !(await store.mayRegister(accountId))) return null;
  c.save(ctx, { userId: accountId, email, step: 'verified', via: verifiedBy });
  return { redirect: c.links(ctx).registerAction };
}

async function showRegisterPage(c: PasskeyCeremony, ctx: StepContext, ceremony: Ceremony, error?: string): Promise<StepOutcome> {
  const { store, brand, login } = c.deps;
  const active = activeOf(await store.passkeysOf(ceremony.userId));
  const options = await registrationOptions({
    rpName: brand.name,
    rpID: c.rpID,
    userName: ceremony.email,
    userID: store.userHandle ? store.userHandle(ceremony.userId) : isoUint8Array.fromUTF8String(ceremony.userId),
    active,
    login,
  });
  c.save(ctx, { userId: ceremony.userId, email: ceremony.email, step: 'verified', via: ceremony.via ?? 'email_code', challenge: options.challenge });
  const conditional = ceremony.via === IMPORTED_PASSWORD;
  // docs/decisions/0049: at a custom domain, also the options for its own rpID (no Related Origin Requests).
  const page = registerPage(c.links(ctx), { ...offeredOptions(c.rp, options, 'create'), conditional, ...(error ? { error } : {}) }, brand);
  return { status: error ? 400 : 200, page };
}

export async function registerPageStep(c: PasskeyCeremony, ctx: StepContext): Promise<StepOutcome> {
  const ceremony = c.load(ctx, 'verified');
  return ceremony ? showRegisterPage(c, ctx, ceremony) : c.startOver(ctx);
}

export async function registerSubmit(c: PasskeyCeremony, ctx: StepContext, form: FormBody): Promise<StepOutcome> {
  const { db, clock, store, events, brand } = c.deps;
  const ceremony = c.load(ctx, 'verified');
  if (!ceremony) return c.startOver(ctx);
  // "Not now": the address is verified, so the sign-in completes without a passkey.
  if (form.skip !== undefined) {
    await events?.recordNow(ctx.origin, { ...codeSignIn(ceremony.email), details: { method: ceremony.via ?? 'email_code' } });
    c.clear(ctx);
    return { accountId: ceremony.userId };
  }
  // Asked again: the user may have lost the right to one since the offer (a deactivated account).
  if (store.mayRegister && !(await store.mayRegister(ceremony.userId))) return c.startOver(ctx);
  const response = parseJson<RegistrationResponseJSON>(form.response);
  // For one of the rpIDs offered, from an origin that rpID allows (docs/decisions/0049). docs/decisions/0052:
  // a conditional create (the browser's automatic upgrade) verifies no user; the person was just
  // verified by their password, and only then is it taken without.
  const userVerified = !(form.conditional === '1' && ceremony.via === IMPORTED_PASSWORD);
  const verified = response && ceremony.challenge ? await verifiedRegistration(c.rp, response, ceremony.challenge, { userVerified }) : null;
  if (!verified) return showRegisterPage(c, ctx, ceremony, textsOf(brand).passkeyNotCreated);
  const { credential } = verified;
  const name = deviceNameFromUserAgent(ctx.request.headers['user-agent']);
  // The device, its registration event (counted as `issued`) and the sign-in it completes commit together.
  const stored = await db.transaction(async (tx) => {
    const inserted = await store.insert(tx, {
      id: credential.id,
      userId: ceremony.userId,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: knownTransports(credential.transports),
      name,
      ip: ctx.request.ip,
      country: events?.countryOf(ctx.request.ip) ?? null,
      registeredWith: ceremony.via ?? 'email_code',
      // docs/decisions/0047: verified against exactly this rpID from now on (0049: the one it was made for).
      rpId: verified.rpID,
      createdAt: clock.now(),
    });
    if (!inserted) return false;
    await events?.record(tx, ctx.origin, {
      scope: 'oidc',
      status: 'created',
      action: 'device.register',
      userId: ceremony.email,
      deviceName: name,
      usage: 'issued',
      details: { mpinId: credential.id, verifiedBy: ceremony.via ?? 'email_code' },
    });
    await events?.record(tx, ctx.origin, { ...codeSignIn(ceremony.email, name), details: { method: ceremony.via ?? 'email_code' } });
    return true;
  });
  if (!stored) return showRegisterPage(c, ctx, ceremony, textsOf(brand).passkeyExists);
  c.clear(ctx);
  // The session begun with this passkey's creation ends with its revocation too.
  return { accountId: ceremony.userId, deviceId: credential.id };
}
