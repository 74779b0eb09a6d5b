import { generateAuthenticationOptions, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import { passkeyPage, quickCodeShownPage } from '../pages/passkey-views.ts';
import type { FormBody, Identity, StepContext, StepOutcome } from '../pages/site.ts';
import { textsOf } from '../pages/views.ts';
import {
  checkedAssertion,
  LOOKUPS_PER_CLIENT,
  loginMethods,
  markUsedWithEvent,
  mayIssueQuickCodes,
  newQuickCode,
  parseJson,
  QUICK_CODE_TTL_MS,
  transportsFor,
  type Passkey,
} from '../passkeys.ts';
import { activeOf, type Ceremony, type PasskeyCeremony } from './ceremony.ts';
import { afterCrossDevice } from './new-passkey-step.ts';

/**
 * Signing in with a passkey: page 1's address sends a user with one here; the passkey page asks
 * for it; its answer signs them in, or shows the QuickCode they asked for (docs/decisions/0017).
 */

/** At most this many passkeys ride in the ceremony cookie (each id up to ~90 characters; a cookie holds 4 KB). */
const CREDENTIALS_IN_CEREMONY = 8;

/** Page 1 posted with a well-formed address: a user with a passkey here is sent to use it. */
export async function afterEmail(
  c: PasskeyCeremony,
  ctx: StepContext,
  email: string,
  identityType: Identity['type'] = 'email',
): Promise<StepOutcome | null> {
  const { store } = c.deps;
  // docs/decisions/0047: with a relying party of its own, page 1 tells nothing: an address typed
  // goes to the fallback; passkeys come from the autofill or the button (discover-passkey-step.ts).
  if (c.deps.discoverable) return null;
  // Page 1 tells whether an address has a passkey here (docs/decisions/0013): the answers one
  // client address gets are limited, like the codes it may have sent.
  if (await c.tooMany(ctx, 'lookup', LOOKUPS_PER_CLIENT)) return { status: 429, page: c.tooManyPage(ctx) };
  const identity = { type: identityType, value: email };
  let user: { id: string } | null;
  let devices: Passkey[];
  if (store.userWithPasskeys) {
    const found = await store.userWithPasskeys(identity);
    user = found;
    devices = found?.passkeys ?? [];
  } else {
    user = await store.userOf(identity);
    devices = user ? await store.passkeysOf(user.id) : [];
  }
  if (!user || devices.length === 0) return null;
  // spec §4: a revoked device cannot sign in; the page says so (the address was given first).
  const active = activeOf(devices);
  if (active.length === 0) return c.refused(ctx, email);
  // A few passkeys travel in the sealed ceremony cookie to the next page; more are read there.
  const credentials = active.length <= CREDENTIALS_IN_CEREMONY ? active.map((d) => ({ id: d.id, transports: d.transports })) : undefined;
  c.save(ctx, { userId: user.id, email, step: 'passkey', ...(credentials ? { credentials } : {}) });
  return { redirect: c.links(ctx).passkeyAction };
}

async function showPasskeyPage(c: PasskeyCeremony, ctx: StepContext, ceremony: Ceremony, error?: string): Promise<StepOutcome> {
  const { store, login, quickCodes, brand } = c.deps;
  const active = ceremony.credentials && !error ? ceremony.credentials : activeOf(await store.passkeysOf(ceremony.userId));
  if (active.length === 0) return c.refused(ctx, ceremony.email);
  const options = await generateAuthenticationOptions({
    rpID: c.rpID,
    userVerification: 'required',
    allowCredentials: active.map((d) => ({ id: d.id, transports: d.transports })),
  });
  c.save(ctx, { userId: ceremony.userId, email: ceremony.email, step: 'passkey', challenge: options.challenge });
  // spec §3 loginOptions (docs/decisions/0017): one button per login method, the primary first;
  // the same challenge, each asking the browser for passkeys reachable that way.
  const ways = loginMethods(login).map((method) => ({
    method,
    optionsJson: JSON.stringify({
      ...options,
      allowCredentials: options.allowCredentials?.map((cred) => ({ ...cred, transports: transportsFor(method, cred.transports) })),
    }),
  }));
  const page = passkeyPage(c.links(ctx), { email: ceremony.email, ways, quickCode: quickCodes.enabled, ...(error ? { error } : {}) }, brand);
  return { status: error ? 400 : 200, page };
}

export async function passkeyPageStep(c: PasskeyCeremony, ctx: StepContext): Promise<StepOutcome> {
  const ceremony = c.load(ctx, 'passkey');
  return ceremony ? showPasskeyPage(c, ctx, ceremony) : c.startOver(ctx);
}

export async function passkeySubmit(c: PasskeyCeremony, ctx: StepContext, form: FormBody): Promise<StepOutcome> {
  const { db, clock, store, events, brand } = c.deps;
  const { codes } = c;
  const ceremony = c.load(ctx, 'passkey');
  if (!ceremony?.challenge) return c.startOver(ctx);
  const response = parseJson<AuthenticationResponseJSON>(form.response);
  const device = typeof response?.id === 'string' ? await store.find(response.id) : null;
  // Only a credential of this user in this project: one of another project is not found here.
  if (!response || !device || device.userId !== ceremony.userId) {
    await events?.refusal(ctx.origin, c.signInEvent(ceremony.email, 'failed', { reason: 'unknown_credential' }));
    return showPasskeyPage(c, ctx, ceremony, textsOf(brand).passkeyUnknown);
  }
  if (device.revoked) return c.refused(ctx, ceremony.email, device);
  // docs/decisions/0047: a passkey is verified for the relying party it was made under, and no other.
  const verification = await checkedAssertion(c.rp, device, response, ceremony.challenge);
  if (verification === 'wrongRp') return c.wrongRelyingParty(ctx, ceremony.email, device);
  if (!verification) {
    await events?.refusal(ctx.origin, c.signInEvent(ceremony.email, 'failed', { reason: 'not_verified' }, device));
    return showPasskeyPage(c, ctx, ceremony, textsOf(brand).passkeyNotVerified);
  }
  const counter = verification.newCounter;
  // "Also get a QuickCode" (docs/decisions/0017): not from a device that was itself registered
  // with a QuickCode when the project limits QuickCodes to verified identities.
  const wantsCode = codes !== null && form.quickcode === '1';
  const code = wantsCode && mayIssueQuickCodes(device.registeredWith, codes.verifiedOnly) ? newQuickCode() : null;
  // The device's use, its sign-in event, and a QuickCode with its event commit together (docs/decisions/0014);
  // without a QuickCode, the use and its event are one statement where the store can (markUsedWithEvent).
  const signIn = { origin: ctx.origin, event: c.signInEvent(ceremony.email, 'success', {}, device) };
  const use = { id: device.id, counter, now: clock.now(), backedUp: verification.backedUp };
  const used = !(code && codes)
    ? await markUsedWithEvent(db, store, events, signIn, use)
    : await db.transaction(async (tx) => {
        const { now } = use;
        if (!(await store.markUsed(tx, use))) return false;
        await events?.record(tx, signIn.origin, signIn.event);
        const codeHash = c.quickCodeHash(device.userId, code);
        const expiresAt = new Date(now.getTime() + QUICK_CODE_TTL_MS);
        await codes.store.replace(tx, { userId: device.userId, codeHash, issuedBy: device.id, createdAt: now, expiresAt });
        await events?.record(tx, ctx.origin, c.quickCodeEvent(ceremony.email, 'success', 'reg_code.issued', { mpinId: device.id }, device.name));
        return true;
      });
  if (!used) return c.refused(ctx, ceremony.email, device);
  if (wantsCode) {
    if (!code)
      await events?.refusal(ctx.origin, c.quickCodeEvent(ceremony.email, 'denied', 'reg_code.issued', { reason: 'verified_only' }, device.name));
    c.save(ctx, { userId: device.userId, email: ceremony.email, step: 'quickcode', deviceId: device.id });
    return { status: 200, page: quickCodeShownPage(c.links(ctx), { code, minutes: QUICK_CODE_TTL_MS / 60_000 }, brand) };
  }
  // docs/decisions/0050: a phone's passkey used from here (cross-device): a passkey on this device is offered.
  const offer = afterCrossDevice(c, ctx, device, ceremony.email, response.authenticatorAttachment);
  if (offer) return offer;
  c.clear(ctx);
  const signals = await c.signalsAfterSignIn(ctx, device.userId, ceremony.email);
  return { accountId: device.userId, deviceId: device.id, ...(signals ? { signals } : {}) };
}

/** After a QuickCode was shown: the sign-in it was issued in goes on. */
export async function quickCodeContinue(c: PasskeyCeremony, ctx: StepContext): Promise<StepOutcome> {
  const ceremony = c.load(ctx, 'quickcode');
  if (!ceremony?.deviceId) return c.startOver(ctx);
  c.clear(ctx);
  return { accountId: ceremony.userId, deviceId: ceremony.deviceId };
}
