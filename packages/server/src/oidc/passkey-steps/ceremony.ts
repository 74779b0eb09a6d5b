import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { hitAll, type RateLimit } from '../../db/rate-limits.repository.ts';
import type { EndUserEvent, IssuerEvents } from '../../events/end-user-event.ts';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { rateLimitKeyOf } from '../../http/client-address.ts';
import { revokedPage, type PasskeyLinks } from '../pages/passkey-views.ts';
import { asksForJson, type StepContext, type StepOutcome } from '../pages/site.ts';
import { emailPage, textsOf, type PageBrand, type PasskeySignal } from '../pages/views.ts';
import {
  acceptedCredentialSignals,
  rpIdOf,
  quickCodeHashOf,
  relyingPartyOf,
  type LoginMethods,
  type Passkey,
  type PasskeyStore,
  type QuickCodeStore,
  type RecoveryCodeStore,
  type RelyingParty,
} from '../passkeys.ts';

/**
 * What every passkey step shares (use-passkey-step.ts, new-passkey-step.ts, quick-code-step.ts):
 * the issuer's settings, the ceremony cookie, its per-client limits, its events and the refusal of
 * a revoked passkey.
 */

export interface PasskeyStepsDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  publicUrl: string;
  /** The issuer's key (a project's id, or the console's): its ceremonies, limits and codes are its own. */
  issuerKey: string;
  mountPath: string;
  brand: PageBrand;
  store: PasskeyStore;
  /** What the steps report (a project's issuer, docs/decisions/0014); the console's records none. */
  events?: IssuerEvents;
  /** spec §3 enableRegistrationCode, limitRegCodeVerified, and where the codes are kept. */
  quickCodes: { enabled: false } | { enabled: true; verifiedOnly: boolean; store: QuickCodeStore };
  /** spec §3 loginOptions, as §4 normalises them. */
  login: LoginMethods;
  /** A project's recovery codes (docs/decisions/0051); the console's issuer has none. */
  recoveryCodes?: RecoveryCodeStore;
  /**
   * The issuer's relying party (docs/decisions/0047: a project's own host, its origins); without it,
   * publicUrl's host and origin (the console's issuer).
   */
  relyingParty?: RelyingParty;
  /**
   * docs/decisions/0047: passkeys are discoverable here (the issuer has a relying party of its own):
   * page 1 offers them without an address and tells nobody whether an address has one.
   */
  discoverable?: boolean;
  /**
   * docs/decisions/0050: a project's passkey offer after every fallback sign-in (its setting, the
   * person's fallback sign-ins); without it (the console's issuer) a user without a passkey is offered one.
   */
  enrollment?: Enrollment;
}

/** A project's passkey offer after every fallback sign-in (issue 37 "Enrollment", docs/decisions/0050; oidc/passkey-steps/enrollment.ts). */
export interface Enrollment {
  /** The project's passkeyEnrollment: off, offer, or require once `requireAfter` fallback sign-ins were made. */
  mode: 'off' | 'offer' | 'require';
  requireAfter: number;
  /** The person's fallback sign-ins before this one (project_users.fallback_sign_ins). */
  fallbackSignIns(userId: string): Promise<number>;
  /**
   * The project's emailRecoveryDelay in milliseconds, 0 for none (docs/decisions/0051): while it
   * applies, an email-only sign-in of a person holding passkeys is not offered one here.
   */
  emailRecoveryDelayMs: number;
}

/** The ceremony under way in one interaction (sealed in a cookie: no instance keeps it, DESIGN "The data plane"). */
export interface Ceremony {
  uid: string;
  userId: string;
  email: string;
  /**
   * `passkey`: the address is known, a passkey is asked for; `verified`: the emailed code (or a
   * QuickCode, `via`) proved the address; `quickcode`: signed in with the passkey `deviceId`, a
   * QuickCode is on the screen until Continue; `discover`: page 1 offers passkeys without an
   * address (docs/decisions/0047; no user yet: `userId` and `email` are empty).
   */
  step: 'passkey' | 'verified' | 'quickcode' | 'discover';
  /** How a `verified` user proved who they are: what their new device is registered with (`hybrid`: a passkey of another device). */
  via?: string;
  /** docs/decisions/0050: the offer may not be declined (the project requires a passkey by now). */
  required?: boolean;
  /** The offer's page was shown once already (its `passkey.offer.shown` event is recorded once). */
  shown?: boolean;
  /** The sign-in is recorded already (with the other device's passkey): the offer's answer records none. */
  signedIn?: boolean;
  deviceId?: string;
  /** The challenge of the options last shown (base64url), when the page was shown. */
  challenge?: string;
  /**
   * The user's active passkeys as page 1 read them (a few at most), so the passkey page that
   * follows asks the store nothing; a passkey revoked meanwhile is still refused at its use.
   */
  credentials?: Array<{ id: string; transports: string[] }>;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export const CEREMONY_COOKIE = 'lk_issuer_passkey';
/** Time to answer the passkey prompt or type the code; after it, the ceremony starts again from page 1. */
const CEREMONY_TTL_MS = 10 * 60 * 1000;
const LIMIT_WINDOW_MS = 10 * 60 * 1000;

export const activeOf = (devices: Passkey[]) => devices.filter((d) => !d.revoked);

export class PasskeyCeremony {
  /** The QuickCodes' settings and store, when the issuer offers them. */
  readonly codes: { verifiedOnly: boolean; store: QuickCodeStore } | null;
  /** Where this issuer's passkeys are made (rpID) and used (origins). */
  readonly rp: RelyingParty;
  readonly #secure: boolean;

  readonly deps: PasskeyStepsDeps;

  constructor(deps: PasskeyStepsDeps) {
    this.deps = deps;
    this.codes = deps.quickCodes.enabled ? deps.quickCodes : null;
    const { rpID, origin } = relyingPartyOf(deps.publicUrl);
    this.rp = deps.relyingParty ?? { rpID, origins: [origin], legacyRpID: rpID };
    this.#secure = deps.publicUrl.startsWith('https:');
  }

  /** The rpID new passkeys are made under. */
  get rpID(): string {
    return this.rp.rpID;
  }

  #context(uid: string): string {
    return `passkey-ceremony:${this.deps.issuerKey}:${uid}`;
  }

  #cookiePath(uid: string): string {
    return `${this.deps.mountPath}/interaction/${encodeURIComponent(uid)}`;
  }

  links(ctx: StepContext): PasskeyLinks {
    const base = this.#cookiePath(ctx.uid);
    return {
      ...ctx.links,
      passkeyAction: `${base}/passkey`,
      discoverAction: `${base}/passkey/discover`,
      registerAction: `${base}/register`,
      quickCodeAction: `${base}/quickcode`,
      quickCodeContinue: `${base}/quickcode/continue`,
      recoveryAction: `${base}/recovery`,
    };
  }

  /** A per-client limit of this project (a keyed hash of the client's address, IPv6: its /64). */
  #clientLimit(ctx: StepContext, name: string, max: number): RateLimit {
    const { secretBox, issuerKey } = this.deps;
    return {
      name,
      bucket: secretBox.hmac('rate-limit', ['passkeys', issuerKey, name, rateLimitKeyOf(ctx.request.ip)].join('\n')),
      max,
      windowMs: LIMIT_WINDOW_MS,
    };
  }

  async tooMany(ctx: StepContext, name: string, max: number): Promise<boolean> {
    const { db, issuerKey, clock } = this.deps;
    return (await hitAll(db, issuerKey, [this.#clientLimit(ctx, name, max)], clock.now())) !== null;
  }

  tooManyPage(ctx: StepContext): string {
    return emailPage(ctx.links, { error: textsOf(this.deps.brand).tooManyTries }, this.deps.brand);
  }

  quickCodeHash(userId: string, code: string): string {
    return quickCodeHashOf(this.deps.secretBox, this.deps.issuerKey, userId, code);
  }

  save(ctx: StepContext, ceremony: Omit<Ceremony, 'uid' | 'expiresAt'>): void {
    const value: Ceremony = { ...ceremony, uid: ctx.uid, expiresAt: this.deps.clock.now().getTime() + CEREMONY_TTL_MS };
    ctx.reply.setCookie(CEREMONY_COOKIE, this.deps.secretBox.sealJson(value, this.#context(ctx.uid)), {
      path: this.#cookiePath(ctx.uid),
      httpOnly: true,
      sameSite: 'lax',
      secure: this.#secure,
      maxAge: CEREMONY_TTL_MS / 1000,
    });
  }

  clear(ctx: StepContext): void {
    ctx.reply.clearCookie(CEREMONY_COOKIE, { path: this.#cookiePath(ctx.uid), httpOnly: true, sameSite: 'lax', secure: this.#secure });
  }

  /** This interaction's ceremony at `step`, or null (none, another interaction's, expired, forged). */
  load(ctx: StepContext, step: Ceremony['step']): Ceremony | null {
    const sealed = ctx.request.cookies[CEREMONY_COOKIE];
    if (!sealed) return null;
    try {
      const ceremony = this.deps.secretBox.openJson<Ceremony>(sealed, this.#context(ctx.uid));
      if (ceremony.uid !== ctx.uid || ceremony.step !== step || ceremony.expiresAt <= this.deps.clock.now().getTime()) return null;
      return ceremony;
    } catch {
      return null;
    }
  }

  startOver(ctx: StepContext): StepOutcome {
    return { redirect: ctx.links.emailPage };
  }

  /** A passkey sign-in event of `email` (docs/decisions/0014). */
  signInEvent(email: string | null, status: EndUserEvent['status'], details: Record<string, unknown>, device?: Passkey): EndUserEvent {
    return {
      scope: 'oidc',
      status,
      action: 'sign_in',
      userId: email,
      deviceName: device?.name ?? null,
      details: { method: 'passkey', ...(device ? { mpinId: device.id } : {}), ...details },
      ...(status === 'success' ? { usage: 'oidc' as const } : {}),
    };
  }

  /** A QuickCode event (scope `reg-code`); issuing one counts as `reg-code` usage. */
  quickCodeEvent(
    email: string,
    status: EndUserEvent['status'],
    action: 'reg_code.issued' | 'reg_code.used',
    details: Record<string, unknown>,
    deviceName: string | null = null,
  ): EndUserEvent {
    return {
      scope: 'reg-code',
      status,
      action,
      userId: email,
      deviceName,
      details,
      ...(status === 'success' && action === 'reg_code.issued' ? { usage: 'reg-code' as const } : {}),
    };
  }

  /** The user handle a passkey of `userId` was made with (base64url), as the authenticator returns it. */
  userHandle(userId: string): string {
    const { store } = this.deps;
    return isoBase64URL.fromBuffer(store.userHandle ? store.userHandle(userId) : isoUint8Array.fromUTF8String(userId));
  }

  /**
   * The Signal API right after a passkey sign-in (docs/decisions/0048), when the page script asked
   * for JSON (it sends them before following the redirect): the user's passkeys this relying party
   * accepts (revoked ones and those made under another rpID left out) and their identity as the
   * passkeys' name. Nothing is read when the page did not ask.
   */
  async signalsAfterSignIn(ctx: StepContext, userId: string, identity: string): Promise<PasskeySignal[] | undefined> {
    if (!asksForJson(ctx.request)) return undefined;
    const userID = this.userHandle(userId);
    const active = activeOf(await this.deps.store.passkeysOf(userId));
    // docs/decisions/0049: at a custom domain with an own host, each rpID's own (the browser refuses the one it cannot use there).
    return acceptedCredentialSignals(this.rp, userID, active, identity);
  }

  /** spec §4: a revoked device cannot sign in (result `denied`); the page says so. */
  async refused(ctx: StepContext, email: string, device?: Passkey): Promise<StepOutcome> {
    await this.deps.events?.refusal(ctx.origin, this.signInEvent(email, 'denied', { reason: 'device_revoked' }, device));
    this.clear(ctx);
    // The Signal API: the browser may stop offering a passkey this relying party no longer accepts.
    const signal = device ? { signalName: 'unknownCredential' as const, rpID: rpIdOf(this.rp, device), credentialID: device.id } : undefined;
    return { status: 403, page: revokedPage(ctx.links, email, this.deps.brand, 'revoked', signal) };
  }

  /**
   * docs/decisions/0047: a passkey of this project presented for another relying party than the one
   * it was made under (result `denied`): refused with a page, like a revoked one.
   */
  async wrongRelyingParty(ctx: StepContext, email: string, device: Passkey): Promise<StepOutcome> {
    await this.deps.events?.refusal(ctx.origin, this.signInEvent(email, 'denied', { reason: 'wrong_rp_id' }, device));
    this.clear(ctx);
    return { status: 403, page: revokedPage(ctx.links, email, this.deps.brand, 'wrongRelyingParty') };
  }
}
