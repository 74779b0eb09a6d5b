import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { codeSignInEvent as codeSignIn, type EndUserEvent } from '../../events/end-user-event.ts';
import { deviceNameFromUserAgent } from '../device-name.ts';
import { registerPage } from '../pages/passkey-views.ts';
import type { FormBody, StepContext, StepOutcome } from '../pages/site.ts';
import { textsOf } from '../pages/views.ts';
import { knownTransports, offeredOptions, parseJson, registrationOptions, rpIdOf, verifiedRegistration, type Passkey } from '../passkeys.ts';
import { isWatchedFallback } from '../recovery-codes.ts';
import { activeOf, type Ceremony, type PasskeyCeremony } from './ceremony.ts';
import { declinedHere, rememberDecline } from './enrollment.ts';

/**
 * Creating a passkey on this device once the identity was verified (an emailed code, a link, the
 * project's verification, a QuickCode) or a passkey of another device was used (docs/decisions/0050):
 * "Not now" signs them in without it, remembered in this browser a while; a project may require one.
 */

/** How a person who signed in with an imported password (docs/decisions/0052) came to the offer. */
const IMPORTED_PASSWORD = 'imported_password';

/** The code (or `verifiedBy`, docs/decisions/0018) verified the user `accountId`: the offer, or null (signed in at once). */
export async function afterCode(
  c: PasskeyCeremony,
  ctx: StepContext,
  accountId: string,
  email: string,
  verifiedBy = 'email_code',
): Promise<StepOutcome | null> {
  const { store, enrollment } = c.deps;
  if (!enrollment) {
    // The console's issuer: a passkey for this relying party; one made under another (the shared
    // host before an issuer move, docs/decisions/0047) is not counted, so the user is offered one.
    // (0049's custom-domain rpID is a project's only: the console has none.)
    const wanted = c.rp.localRpID ?? c.rpID;
    if (activeOf(await store.passkeysOf(accountId)).some((p) => rpIdOf(c.rp, p) === wanted)) return null;
    if (store.mayRegister && !(await store.mayRegister(accountId))) return null;
    c.save(ctx, { userId: accountId, email, step: 'verified', via: verifiedBy });
    return { redirect: c.links(ctx).registerAction };
  }
  // A project's: after every fallback sign-in, whatever passkeys the person holds elsewhere — the
  // server cannot tell which device this is, and a passkey here is what spares the next fallback.
  // This covers 0049's case too: at a custom domain, one made for its rpID where the browser lacks
  // Related Origin Requests; an own-host passkey is excluded from the new one's creation.
  // `off` (0050) leaves the offer to what leads to a passkey by itself: 0052's one password sign-in
  // of an imported person (their hash is gone now; a passkey is what they go on with).
  if (enrollment.mode === 'off' && verifiedBy !== IMPORTED_PASSWORD) return null;
  // docs/decisions/0051: with an emailRecoveryDelay, a passkey holder signed in by the emailed code
  // or link, or the project's own verification, waits for it (whoever holds their mailbox, or got
  // past the project's check, must not get a passkey at once); the account page's "Add a passkey"
  // lets them once the recovery's delay has passed.
  if (enrollment.emailRecoveryDelayMs > 0 && isWatchedFallback(verifiedBy) && activeOf(await store.passkeysOf(accountId)).length > 0) return null;
  if (store.mayRegister && !(await store.mayRegister(accountId))) return null;
  const required = enrollment.mode === 'require' && (await enrollment.fallbackSignIns(accountId)) >= enrollment.requireAfter;
  if (!required && declinedHere(c, ctx, accountId)) return null;
  c.save(ctx, { userId: accountId, email, step: 'verified', via: verifiedBy, ...(required ? { required } : {}) });
  return { redirect: c.links(ctx).registerAction };
}

/**
 * docs/decisions/0050: signed in here with the passkey `device` of another device (a phone by the
 * cross-device flow), recorded already: a passkey on this device is offered, or null (signed in at once).
 */
export function afterCrossDevice(c: PasskeyCeremony, ctx: StepContext, device: Passkey, identity: string, attachment: unknown): StepOutcome | null {
  const { enrollment } = c.deps;
  // A phone's passkey answers by the hybrid transport as a cross-platform authenticator; a security
  // key is cross-platform too but is carried along, so only a passkey that can travel by hybrid counts.
  if (!enrollment || enrollment.mode === 'off' || attachment !== 'cross-platform' || !device.transports.includes('hybrid')) return null;
  if (declinedHere(c, ctx, device.userId)) return null;
  c.save(ctx, { userId: device.userId, email: identity, step: 'verified', via: 'hybrid', deviceId: device.id, signedIn: true });
  return { redirect: c.links(ctx).registerAction };
}

/** An event of the offer (docs/decisions/0050), counted in the enrollment funnel. */
function offerEvent(
  ceremony: Ceremony,
  action: 'passkey.offer.shown' | 'passkey.offer.declined',
  details: Record<string, unknown> = {},
): EndUserEvent {
  return {
    scope: 'oidc',
    status: 'success',
    action,
    userId: ceremony.email,
    details: { via: ceremony.via ?? 'email_code', ...(ceremony.required ? { required: true } : {}), ...details },
  };
}

/** Every passkey of the person is kept on one device (BE unset): a second one is worth suggesting. */
const onlyDeviceBound = (active: Passkey[]) => active.length > 0 && active.every((p) => p.backupEligible === false);

async function showRegisterPage(c: PasskeyCeremony, ctx: StepContext, ceremony: Ceremony, error?: string): Promise<StepOutcome> {
  const { store, brand, login, events } = c.deps;
  const active = activeOf(await store.passkeysOf(ceremony.userId));
  if (!ceremony.shown && c.deps.enrollment) await events?.recordNow(ctx.origin, offerEvent(ceremony, 'passkey.offer.shown'));
  const options = await registrationOptions({
    rpName: brand.name,
    rpID: c.rpID,
    userName: ceremony.email,
    userID: store.userHandle ? store.userHandle(ceremony.userId) : isoUint8Array.fromUTF8String(ceremony.userId),
    active,
    login,
  });
  const { uid: _uid, expiresAt: _expiresAt, ...kept } = ceremony;
  c.save(ctx, { ...kept, via: ceremony.via ?? 'email_code', challenge: options.challenge, shown: true });
  const page = registerPage(
    c.links(ctx),
    {
      // docs/decisions/0049: at a custom domain, also the options for its own rpID (no Related Origin Requests).
      ...offeredOptions(c.rp, options, 'create'),
      ...(error ? { error } : {}),
      ...(ceremony.required ? { required: true } : {}),
      ...(onlyDeviceBound(active) ? { secondPasskey: true } : {}),
      // docs/decisions/0052: after a password sign-in, the browser's automatic upgrade is asked first.
      ...(ceremony.via === IMPORTED_PASSWORD ? { conditional: true } : {}),
    },
    brand,
  );
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
  const signedIn = (): { accountId: string; deviceId?: string } =>
    ceremony.deviceId ? { accountId: ceremony.userId, deviceId: ceremony.deviceId } : { accountId: ceremony.userId };
  // "Not now": the address is verified, so the sign-in completes without a passkey. Where the
  // project requires one, only a browser without WebAuthn goes on without (never a dead end).
  if (form.skip !== undefined) {
    const unsupported = form.skip === 'unsupported';
    if (ceremony.required && !unsupported) return showRegisterPage(c, ctx, ceremony, textsOf(brand).passkeyRequiredError);
    const written: EndUserEvent[] = [
      ...(c.deps.enrollment ? [offerEvent(ceremony, 'passkey.offer.declined', unsupported ? { reason: 'no_webauthn' } : {})] : []),
      ...(ceremony.signedIn ? [] : [{ ...codeSignIn(ceremony.email), details: { method: ceremony.via ?? 'email_code' } }]),
    ];
    // One event is one statement, atomic by itself (docs/decisions/0054); two commit together.
    if (written.length === 1 && written[0]) await events?.recordNow(ctx.origin, written[0]);
    else if (written.length > 1)
      await db.transaction(async (tx) => {
        for (const event of written) await events?.record(tx, ctx.origin, event);
      });
    if (c.deps.enrollment && !ceremony.required && !unsupported) rememberDecline(c, ctx, ceremony.userId);
    c.clear(ctx);
    return signedIn();
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
      // docs/decisions/0050: BE (a synced passkey provider's) and BS, from the authenticator data.
      backupEligible: verified.backupEligible,
      backedUp: verified.backedUp,
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
      details: {
        mpinId: credential.id,
        verifiedBy: ceremony.via ?? 'email_code',
        // Created from the offer after a fallback sign-in: the funnel's "created" (docs/decisions/0050).
        ...(c.deps.enrollment ? { offer: true, synced: verified.backupEligible } : {}),
      },
    });
    if (!ceremony.signedIn)
      await events?.record(tx, ctx.origin, { ...codeSignIn(ceremony.email, name), details: { method: ceremony.via ?? 'email_code' } });
    return true;
  });
  if (!stored) return showRegisterPage(c, ctx, ceremony, textsOf(brand).passkeyExists);
  c.clear(ctx);
  // The session begun with this passkey's creation ends with its revocation too.
  return { accountId: ceremony.userId, deviceId: credential.id };
}
