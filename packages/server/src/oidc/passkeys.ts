import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import { randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import { safeEqual, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { rateLimitKeyOf } from '../http/client-address.ts';
import { deviceNameFromUserAgent } from './device-name.ts';
import { codeSignInEvent as codeSignIn, type EndUserEvent, type IssuerEvents } from '../events/end-user-event.ts';
import {
  PASSKEY_SCRIPT,
  PASSKEY_SCRIPT_PATH,
  passkeyPage,
  quickCodeEntryPage,
  quickCodeShownPage,
  registerPage,
  revokedPage,
  WEBAUTHN_LIBRARY_PATH,
  webauthnLibrary,
  type PasskeyLinks,
} from './pages/passkey-views.ts';
import type { FormBody, Identity, PasskeySteps, StepContext, StepOutcome } from './pages/site.ts';
import { emailPage, textsOf, type PageBrand } from './pages/views.ts';
import { hitAll, type RateLimit } from '../db/rate-limits.repository.ts';

/** A passkey credential as the steps need it: the spec's device at a project, an administrator's at the console. */
export interface Passkey {
  /** The credential id (base64url): the spec's mpinId. */
  id: string;
  userId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  revoked: boolean;
  /** How the owner proved who they were at registration: `email_code`, `reg_code` (a QuickCode), … */
  registeredWith: string;
}

/** Where an issuer keeps its users' passkeys: a project's devices, the console's administrators' passkeys. */
export interface PasskeyStore {
  /** The user this identity names here, or null (no such user yet). */
  userOf(identity: Identity): Promise<{ id: string } | null>;
  /** Every passkey of one user here, revoked ones included, oldest first. */
  passkeysOf(userId: string): Promise<Passkey[]>;
  /** userOf and passkeysOf in one read, where the store can. */
  userWithPasskeys?(identity: Identity): Promise<{ id: string; passkeys: Passkey[] } | null>;
  /** A passkey of this issuer by its credential id (one of another issuer is not found). */
  find(id: string): Promise<Passkey | null>;
  /** Records a sign-in with it (its new signature counter); false when it was revoked meanwhile. */
  markUsed(tx: Db, p: { id: string; counter: number; now: Date }): Promise<boolean>;
  /** May this user be offered a passkey and register one? (a project's end user: always; the console: an active account). */
  mayRegister?(userId: string): Promise<boolean>;
  /** The WebAuthn user handle of a user (at most 64 bytes, nothing personal): the user id's bytes unless said otherwise. */
  userHandle?(userId: string): Uint8Array<ArrayBuffer>;
  /** Stores a new passkey; false when this credential is registered here already (a replayed registration). */
  insert(tx: Db, p: Omit<Passkey, 'revoked'> & { ip: string | null; country: string | null; createdAt: Date }): Promise<boolean>;
}

/** A project's QuickCodes (docs/decisions/0017): one live code per user, hashed, with a few tries. */
export interface QuickCodeStore {
  userByEmail(email: string): Promise<{ id: string } | null>;
  find(userId: string): Promise<{ codeHash: string; usedAt: Date | null; expiresAt: Date; issuedBy: string } | null>;
  /** Counts a try against the code before it is compared; null when its tries are used up. */
  countTry(p: { userId: string; codeHash: string; max: number }): Promise<number | null>;
  use(tx: Db, p: { userId: string; codeHash: string; now: Date }): Promise<boolean>;
  replace(tx: Db, p: { userId: string; codeHash: string; issuedBy: string; createdAt: Date; expiresAt: Date }): Promise<void>;
}

/** The ceremony under way in one interaction (sealed in a cookie: no instance keeps it, DESIGN "The data plane"). */
/** At most this many passkeys ride in the ceremony cookie (each id up to ~90 characters; a cookie holds 4 KB). */
const CREDENTIALS_IN_CEREMONY = 8;

interface Ceremony {
  uid: string;
  userId: string;
  email: string;
  /**
   * `passkey`: the address is known, a passkey is asked for; `verified`: the emailed code (or a
   * QuickCode, `via`) proved the address; `quickcode`: signed in with the passkey `deviceId`, a
   * QuickCode is on the screen until Continue.
   */
  step: 'passkey' | 'verified' | 'quickcode';
  /** How a `verified` user proved who they are: what their new device is registered with. */
  via?: string;
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

/** docs/decisions/0017: a QuickCode is 6 digits, valid 10 minutes, once, with 5 tries from a client address. */
export const QUICK_CODE_TTL_MS = 10 * 60 * 1000;
export const QUICK_CODE_TRIES = 5;
/**
 * Tries a code takes from everyone together: each client address has its QUICK_CODE_TRIES, so a
 * stranger's guesses do not use up the user's own (issue 22); this caps what many addresses can guess.
 */
export const QUICK_CODE_TRIES_PER_CODE = 50;
/** Addresses one client address may look up on page 1 per project and window (does it have a passkey?). */
export const LOOKUPS_PER_CLIENT = 30;
/** QuickCodes one client address may try per project and window, at any addresses. */
export const QUICK_CODE_TRIES_PER_CLIENT = 20;
const LIMIT_WINDOW_MS = 10 * 60 * 1000;

/** What a QuickCode is kept as (keyed, so a copy of the database yields no code). */
export const quickCodeHashOf = (secretBox: SecretBox, issuerKey: string, userId: string, code: string) =>
  secretBox.hmac('quick-code', `${issuerKey}\n${userId}\n${code}`);

/** Where passkeys work: the issuer's host is the relying party (rpID), PUBLIC_URL's origin the origin. */
export function relyingPartyOf(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** The sign-in pages' scripts: @simplewebauthn/browser's bundle and the page script, from our origin. */
export function registerPasskeyAssets(app: FastifyInstance): void {
  const library = webauthnLibrary();
  const send = (body: string) => async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(body);
  app.get(WEBAUTHN_LIBRARY_PATH, { schema: { hide: true } }, send(library));
  app.get(PASSKEY_SCRIPT_PATH, { schema: { hide: true } }, send(PASSKEY_SCRIPT));
}

/** spec §3 loginOptions for passkeys (docs/decisions/0017): Browser Login, Mobile Login, which is offered first. */
export interface LoginMethods {
  browser: boolean;
  mobile: boolean;
  primary: 'browserLogin' | 'mobileLogin';
}

/** The ways a passkey page offers, the primary first; at least one (spec §5: one login method is required). */
export function loginMethods(login: LoginMethods): Array<'device' | 'phone'> {
  const ways: Array<'device' | 'phone'> = [];
  if (login.browser) ways.push('device');
  if (login.mobile) ways.push('phone');
  if (ways.length === 0) return ['device'];
  return login.primary === 'mobileLogin' ? ways.reverse() : ways;
}

/**
 * What a credential's transports become for one way: on this device, every transport but the
 * cross-device one (hybrid: the QR code); on a phone, hybrid only, so the browser shows its QR code.
 */
function transportsFor(method: 'device' | 'phone', stored: readonly string[] | undefined): AuthenticatorTransport[] {
  if (method === 'phone') return ['hybrid'];
  const local = (stored ?? []).filter((t) => t !== 'hybrid') as AuthenticatorTransport[];
  return local.length > 0 ? local : ['internal'];
}

/** A QuickCode: 6 random digits. */
/**
 * How a passkey created on the end user's account page from a session no passkey began is
 * registered (account/new-passkey-step.ts): the session does not tell whether a QuickCode proved who they are.
 */
export const ACCOUNT_PAGE_REGISTRATION = 'account_page';

/**
 * docs/decisions/0017 limitRegCodeVerified: a passkey registered with a QuickCode issues none, nor
 * one the account page registered without knowing how its owner was verified.
 */
export const mayIssueQuickCodes = (registeredWith: string, verifiedOnly: boolean): boolean =>
  !verifiedOnly || (registeredWith !== 'reg_code' && registeredWith !== ACCOUNT_PAGE_REGISTRATION);

/** The WebAuthn transports a browser may name (AuthenticatorTransport): a registration's are what it sent, so only these are kept. */
const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);

export function knownTransports(sent: unknown): string[] {
  return Array.isArray(sent) ? [...new Set(sent.filter((t): t is string => typeof t === 'string' && TRANSPORTS.has(t)))] : [];
}

/** A QuickCode: six digits from the CSPRNG. */
export const newQuickCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const parseJson = <T>(text: string | undefined): T | null => {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
};

/**
 * One issuer's passkey steps (docs/decisions/0013, 0027): a project's or the console's. A passkey is
 * a credential of this issuer: options list only the user's non-revoked credentials here, and an
 * answer is checked against the passkey the issuer's store finds by credential id, so another
 * issuer's passkey is never offered or taken.
 */
/** A passkey's creation options: none of the user's active passkeys again; where it may live as the project's login methods say. */
export function registrationOptions(p: {
  rpName: string;
  rpID: string;
  userName: string;
  userID: Uint8Array<ArrayBuffer>;
  active: ReadonlyArray<Pick<Passkey, 'id' | 'transports'>>;
  login: LoginMethods;
}) {
  const { login } = p;
  return generateRegistrationOptions({
    rpName: p.rpName,
    rpID: p.rpID,
    userName: p.userName,
    userID: p.userID,
    attestationType: 'none',
    excludeCredentials: p.active.map((d) => ({ id: d.id, transports: d.transports as AuthenticatorTransport[] })),
    // Browser Login only: a passkey on this device; Mobile Login only: one on another (a phone, by QR).
    authenticatorSelection: {
      residentKey: 'preferred',
      userVerification: 'required',
      ...(login.browser && !login.mobile ? { authenticatorAttachment: 'platform' as const } : {}),
      ...(login.mobile && !login.browser ? { authenticatorAttachment: 'cross-platform' as const } : {}),
    },
  });
}

export function passkeySteps(deps: {
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
}): PasskeySteps {
  const { db, clock, secretBox, issuerKey, brand, store, events, quickCodes, login } = deps;
  /** The QuickCodes' settings and store, when the issuer offers them. */
  const codes = quickCodes.enabled ? quickCodes : null;
  const { rpID, origin } = relyingPartyOf(deps.publicUrl);
  const secure = deps.publicUrl.startsWith('https:');
  const context = (uid: string) => `passkey-ceremony:${issuerKey}:${uid}`;
  const cookiePath = (uid: string) => `${deps.mountPath}/interaction/${encodeURIComponent(uid)}`;

  const links = (ctx: StepContext): PasskeyLinks => {
    const base = cookiePath(ctx.uid);
    return {
      ...ctx.links,
      passkeyAction: `${base}/passkey`,
      registerAction: `${base}/register`,
      quickCodeAction: `${base}/quickcode`,
      quickCodeContinue: `${base}/quickcode/continue`,
    };
  };

  /** A per-client limit of this project (a keyed hash of the client's address, IPv6: its /64). */
  const clientLimit = (ctx: StepContext, name: string, max: number): RateLimit => ({
    name,
    bucket: secretBox.hmac('rate-limit', ['passkeys', issuerKey, name, rateLimitKeyOf(ctx.request.ip)].join('\n')),
    max,
    windowMs: LIMIT_WINDOW_MS,
  });
  const tooMany = async (ctx: StepContext, name: string, max: number) =>
    (await hitAll(db, issuerKey, [clientLimit(ctx, name, max)], clock.now())) !== null;
  const tooManyPage = (ctx: StepContext) => emailPage(ctx.links, { error: textsOf(brand).tooManyTries }, brand);
  const quickCodeHash = (userId: string, code: string) => quickCodeHashOf(secretBox, issuerKey, userId, code);

  function save(ctx: StepContext, ceremony: Omit<Ceremony, 'uid' | 'expiresAt'>): void {
    const value: Ceremony = { ...ceremony, uid: ctx.uid, expiresAt: clock.now().getTime() + CEREMONY_TTL_MS };
    ctx.reply.setCookie(CEREMONY_COOKIE, secretBox.sealJson(value, context(ctx.uid)), {
      path: cookiePath(ctx.uid),
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: CEREMONY_TTL_MS / 1000,
    });
  }

  function clear(ctx: StepContext): void {
    ctx.reply.clearCookie(CEREMONY_COOKIE, { path: cookiePath(ctx.uid), httpOnly: true, sameSite: 'lax', secure });
  }

  /** This interaction's ceremony at `step`, or null (none, another interaction's, expired, forged). */
  function load(ctx: StepContext, step: Ceremony['step']): Ceremony | null {
    const sealed = ctx.request.cookies[CEREMONY_COOKIE];
    if (!sealed) return null;
    try {
      const ceremony = secretBox.openJson<Ceremony>(sealed, context(ctx.uid));
      if (ceremony.uid !== ctx.uid || ceremony.step !== step || ceremony.expiresAt <= clock.now().getTime()) return null;
      return ceremony;
    } catch {
      return null;
    }
  }

  const activeOf = (devices: Passkey[]) => devices.filter((d) => !d.revoked);
  const startOver = (ctx: StepContext): StepOutcome => ({ redirect: ctx.links.emailPage });

  /** A passkey sign-in event of `email` (docs/decisions/0014). */
  const signInEvent = (email: string, status: EndUserEvent['status'], details: Record<string, unknown>, device?: Passkey): EndUserEvent => ({
    scope: 'oidc',
    status,
    action: 'sign_in',
    userId: email,
    deviceName: device?.name ?? null,
    details: { method: 'passkey', ...(device ? { mpinId: device.id } : {}), ...details },
    ...(status === 'success' ? { usage: 'oidc' as const } : {}),
  });

  /** A QuickCode event (scope `reg-code`); issuing one counts as `reg-code` usage. */
  const quickCodeEvent = (
    email: string,
    status: EndUserEvent['status'],
    action: 'reg_code.issued' | 'reg_code.used',
    details: Record<string, unknown>,
    deviceName: string | null = null,
  ): EndUserEvent => ({
    scope: 'reg-code',
    status,
    action,
    userId: email,
    deviceName,
    details,
    ...(status === 'success' && action === 'reg_code.issued' ? { usage: 'reg-code' as const } : {}),
  });

  /** spec §4: a revoked device cannot sign in (result `denied`); the page says so. */
  const refused = async (ctx: StepContext, email: string, device?: Passkey): Promise<StepOutcome> => {
    await events?.refusal(ctx.origin, signInEvent(email, 'denied', { reason: 'device_revoked' }, device));
    clear(ctx);
    return { status: 403, page: revokedPage(ctx.links, email, brand) };
  };

  async function showPasskeyPage(ctx: StepContext, ceremony: Ceremony, error?: string): Promise<StepOutcome> {
    const active = ceremony.credentials && !error ? ceremony.credentials : activeOf(await store.passkeysOf(ceremony.userId));
    if (active.length === 0) return refused(ctx, ceremony.email);
    const options = await generateAuthenticationOptions({
      rpID,
      userVerification: 'required',
      allowCredentials: active.map((d) => ({ id: d.id, transports: d.transports })),
    });
    save(ctx, { userId: ceremony.userId, email: ceremony.email, step: 'passkey', challenge: options.challenge });
    // spec §3 loginOptions (docs/decisions/0017): one button per login method, the primary first;
    // the same challenge, each asking the browser for passkeys reachable that way.
    const ways = loginMethods(login).map((method) => ({
      method,
      optionsJson: JSON.stringify({
        ...options,
        allowCredentials: options.allowCredentials?.map((c) => ({ ...c, transports: transportsFor(method, c.transports) })),
      }),
    }));
    const page = passkeyPage(links(ctx), { email: ceremony.email, ways, quickCode: quickCodes.enabled, ...(error ? { error } : {}) }, brand);
    return { status: error ? 400 : 200, page };
  }

  async function showRegisterPage(ctx: StepContext, ceremony: Ceremony, error?: string): Promise<StepOutcome> {
    const active = activeOf(await store.passkeysOf(ceremony.userId));
    const options = await registrationOptions({
      rpName: brand.name,
      rpID,
      userName: ceremony.email,
      userID: store.userHandle ? store.userHandle(ceremony.userId) : isoUint8Array.fromUTF8String(ceremony.userId),
      active,
      login,
    });
    save(ctx, { userId: ceremony.userId, email: ceremony.email, step: 'verified', via: ceremony.via ?? 'email_code', challenge: options.challenge });
    const page = registerPage(links(ctx), { optionsJson: JSON.stringify(options), ...(error ? { error } : {}) }, brand);
    return { status: error ? 400 : 200, page };
  }

  return {
    async afterEmail(ctx, email, identityType = 'email') {
      // Page 1 tells whether an address has a passkey here (docs/decisions/0013): the answers one
      // client address gets are limited, like the codes it may have sent.
      if (await tooMany(ctx, 'lookup', LOOKUPS_PER_CLIENT)) return { status: 429, page: tooManyPage(ctx) };
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
      if (active.length === 0) return refused(ctx, email);
      // A few passkeys travel in the sealed ceremony cookie to the next page; more are read there.
      const credentials = active.length <= CREDENTIALS_IN_CEREMONY ? active.map((d) => ({ id: d.id, transports: d.transports })) : undefined;
      save(ctx, { userId: user.id, email, step: 'passkey', ...(credentials ? { credentials } : {}) });
      return { redirect: links(ctx).passkeyAction };
    },

    async afterCode(ctx, accountId, email, verifiedBy = 'email_code') {
      if (activeOf(await store.passkeysOf(accountId)).length > 0) return null;
      if (store.mayRegister && !(await store.mayRegister(accountId))) return null;
      save(ctx, { userId: accountId, email, step: 'verified', via: verifiedBy });
      return { redirect: links(ctx).registerAction };
    },

    async passkeyPage(ctx) {
      const ceremony = load(ctx, 'passkey');
      return ceremony ? showPasskeyPage(ctx, ceremony) : startOver(ctx);
    },

    async passkeySubmit(ctx, form: FormBody) {
      const ceremony = load(ctx, 'passkey');
      if (!ceremony?.challenge) return startOver(ctx);
      const response = parseJson<AuthenticationResponseJSON>(form.response);
      const device = typeof response?.id === 'string' ? await store.find(response.id) : null;
      // Only a credential of this user in this project: one of another project is not found here.
      if (!response || !device || device.userId !== ceremony.userId) {
        await events?.refusal(ctx.origin, signInEvent(ceremony.email, 'failed', { reason: 'unknown_credential' }));
        return showPasskeyPage(ctx, ceremony, textsOf(brand).passkeyUnknown);
      }
      if (device.revoked) return refused(ctx, ceremony.email, device);
      const verification = await verifyAuthenticationResponse({
        response,
        expectedChallenge: ceremony.challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: { id: device.id, publicKey: isoBase64URL.toBuffer(device.publicKey), counter: device.counter, transports: device.transports },
        requireUserVerification: true,
      }).catch(() => null);
      if (!verification?.verified) {
        await events?.refusal(ctx.origin, signInEvent(ceremony.email, 'failed', { reason: 'not_verified' }, device));
        return showPasskeyPage(ctx, ceremony, textsOf(brand).passkeyNotVerified);
      }
      const counter = verification.authenticationInfo.newCounter;
      // "Also get a QuickCode" (docs/decisions/0017): not from a device that was itself registered
      // with a QuickCode when the project limits QuickCodes to verified identities.
      const wantsCode = codes !== null && form.quickcode === '1';
      const code = wantsCode && mayIssueQuickCodes(device.registeredWith, codes.verifiedOnly) ? newQuickCode() : null;
      // The device's use, its sign-in event, and a QuickCode with its event commit together (docs/decisions/0014).
      const used = await db.transaction(async (tx) => {
        const now = clock.now();
        if (!(await store.markUsed(tx, { id: device.id, counter, now }))) return false;
        await events?.record(tx, ctx.origin, signInEvent(ceremony.email, 'success', {}, device));
        if (code && codes) {
          const codeHash = quickCodeHash(device.userId, code);
          const expiresAt = new Date(now.getTime() + QUICK_CODE_TTL_MS);
          await codes.store.replace(tx, { userId: device.userId, codeHash, issuedBy: device.id, createdAt: now, expiresAt });
          await events?.record(tx, ctx.origin, quickCodeEvent(ceremony.email, 'success', 'reg_code.issued', { mpinId: device.id }, device.name));
        }
        return true;
      });
      if (!used) return refused(ctx, ceremony.email, device);
      if (wantsCode) {
        if (!code)
          await events?.refusal(ctx.origin, quickCodeEvent(ceremony.email, 'denied', 'reg_code.issued', { reason: 'verified_only' }, device.name));
        save(ctx, { userId: device.userId, email: ceremony.email, step: 'quickcode', deviceId: device.id });
        return { status: 200, page: quickCodeShownPage(links(ctx), { code, minutes: QUICK_CODE_TTL_MS / 60_000 }, brand) };
      }
      clear(ctx);
      return { accountId: device.userId, deviceId: device.id };
    },

    quickCodes: quickCodes.enabled,

    async quickCodePage(ctx) {
      if (!quickCodes.enabled) return startOver(ctx);
      return { status: 200, page: quickCodeEntryPage(links(ctx), {}, brand) };
    },

    async quickCodeSubmit(ctx, form: FormBody) {
      if (!codes) return startOver(ctx);
      const t = textsOf(brand);
      const email = (form.email ?? '').trim().toLowerCase();
      const code = (form.code ?? '').replace(/\s+/g, '');
      const again = (status: number, error: string): StepOutcome => ({ status, page: quickCodeEntryPage(links(ctx), { email, error }, brand) });
      if (!email || email.length > TEXT_MAX_LENGTH || !isEmail(email)) return again(400, t.invalidEmail);
      if (!/^\d{6}$/.test(code)) return again(400, t.quickCodeFormat);
      if (await tooMany(ctx, 'quickcode', QUICK_CODE_TRIES_PER_CLIENT)) return again(429, t.tooManyTries);
      const refuse = async (reason: string) => {
        await events?.refusal(ctx.origin, quickCodeEvent(email, 'failed', 'reg_code.used', { reason }));
        return again(400, t.quickCodeRefused);
      };
      const user = await codes.store.userByEmail(email);
      const stored = user ? await codes.store.find(user.id) : null;
      if (!user || !stored || stored.usedAt || stored.expiresAt.getTime() <= clock.now().getTime()) return refuse('no_code');
      // Each try is counted before it is compared (docs/decisions/0017, issue 22): five a client address
      // (IPv6: its /64) at this code, so a stranger cannot use up the user's, then fifty from everyone.
      const fromHere: RateLimit = {
        name: 'quickcode-try',
        bucket: secretBox.hmac('rate-limit', ['quickcode-try', issuerKey, user.id, stored.codeHash, rateLimitKeyOf(ctx.request.ip)].join('\n')),
        max: QUICK_CODE_TRIES,
        windowMs: QUICK_CODE_TTL_MS,
      };
      if ((await hitAll(db, issuerKey, [fromHere], clock.now())) !== null) return refuse('too_many');
      if ((await codes.store.countTry({ userId: user.id, codeHash: stored.codeHash, max: QUICK_CODE_TRIES_PER_CODE })) === null) {
        return refuse('too_many');
      }
      if (!safeEqual(quickCodeHash(user.id, code), stored.codeHash)) return refuse('wrong');
      const usedNow = await db.transaction(async (tx) => {
        if (!(await codes.store.use(tx, { userId: user.id, codeHash: stored.codeHash, now: clock.now() }))) return false;
        await events?.record(tx, ctx.origin, quickCodeEvent(email, 'success', 'reg_code.used', { issuedBy: stored.issuedBy }));
        return true;
      });
      if (!usedNow) return refuse('used');
      save(ctx, { userId: user.id, email, step: 'verified', via: 'reg_code' });
      return { redirect: links(ctx).registerAction };
    },

    async quickCodeContinue(ctx) {
      const ceremony = load(ctx, 'quickcode');
      if (!ceremony?.deviceId) return startOver(ctx);
      clear(ctx);
      return { accountId: ceremony.userId, deviceId: ceremony.deviceId };
    },

    async registerPage(ctx) {
      const ceremony = load(ctx, 'verified');
      return ceremony ? showRegisterPage(ctx, ceremony) : startOver(ctx);
    },

    async registerSubmit(ctx, form: FormBody) {
      const ceremony = load(ctx, 'verified');
      if (!ceremony) return startOver(ctx);
      // "Not now": the address is verified, so the sign-in completes without a passkey.
      if (form.skip !== undefined) {
        await events?.recordNow(ctx.origin, { ...codeSignIn(ceremony.email), details: { method: ceremony.via ?? 'email_code' } });
        clear(ctx);
        return { accountId: ceremony.userId };
      }
      // Asked again: the user may have lost the right to one since the offer (a deactivated account).
      if (store.mayRegister && !(await store.mayRegister(ceremony.userId))) return startOver(ctx);
      const response = parseJson<RegistrationResponseJSON>(form.response);
      const verification =
        response && ceremony.challenge
          ? await verifyRegistrationResponse({
              response,
              expectedChallenge: ceremony.challenge,
              expectedOrigin: origin,
              expectedRPID: rpID,
              requireUserVerification: true,
            }).catch(() => null)
          : null;
      if (!verification?.verified) return showRegisterPage(ctx, ceremony, textsOf(brand).passkeyNotCreated);
      const { credential } = verification.registrationInfo;
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
      if (!stored) return showRegisterPage(ctx, ceremony, textsOf(brand).passkeyExists);
      clear(ctx);
      // The session begun with this passkey's creation ends with its revocation too.
      return { accountId: ceremony.userId, deviceId: credential.id };
    },
  };
}
