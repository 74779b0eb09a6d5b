import {
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { createHash, randomInt } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { EventChange } from '../events/audit-events.repository.ts';
import type { EndUserEvent, EventOrigin, IssuerEvents } from '../events/end-user-event.ts';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH, WEBAUTHN_LIBRARY_PATH, webauthnLibrary } from './pages/passkey-views.ts';
import type { Identity } from './pages/site.ts';
import type { PasskeySignal } from './pages/views.ts';

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
  /**
   * The WebAuthn relying party id it was made under (docs/decisions/0047); null: made before rpIDs
   * were stored, under PUBLIC_URL's host (the one relying party of docs/decisions/0013).
   */
  rpId: string | null;
  /**
   * The registration's backup flags (docs/decisions/0050): BE, it may be synced (a passkey
   * provider's), and BS, it is backed up as last seen; null or absent: not known (made before they
   * were stored, or an issuer that keeps none).
   */
  backupEligible?: boolean | null;
  backedUp?: boolean | null;
}

/**
 * A passkey's use and its sign-in event, committed together (docs/decisions/0014): in one statement
 * where the store can make the use part of the event's (issue 38), else in a transaction. False: the
 * passkey was revoked meanwhile, and neither is written.
 */
export async function markUsedWithEvent(
  db: Db,
  store: PasskeyStore,
  events: IssuerEvents | undefined,
  signIn: { origin: EventOrigin; event: EndUserEvent },
  use: { id: string; counter: number; now: Date; backedUp?: boolean },
): Promise<boolean> {
  if (events && store.useChange) return events.recordWith(db, signIn.origin, signIn.event, store.useChange(use));
  return db.transaction(async (tx) => {
    if (!(await store.markUsed(tx, use))) return false;
    await events?.record(tx, signIn.origin, signIn.event);
    return true;
  });
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
  markUsed(tx: Db, p: { id: string; counter: number; now: Date; backedUp?: boolean }): Promise<boolean>;
  /** markUsed as the change its sign-in event records, made by the event's own statement (a project's devices). */
  useChange?(p: { id: string; counter: number; now: Date; backedUp?: boolean }): EventChange;
  /** May this user be offered a passkey and register one? (a project's end user: always; the console: an active account). */
  mayRegister?(userId: string): Promise<boolean>;
  /** The WebAuthn user handle of a user (at most 64 bytes, nothing personal): the user id's bytes unless said otherwise. */
  userHandle?(userId: string): Uint8Array<ArrayBuffer>;
  /** The identity (address or user id) of a user here, or null: what a discoverable sign-in names them by in its events. */
  identityOf?(userId: string): Promise<string | null>;
  /**
   * Is this credential another issuer's that shares this one's relying party? (the console's issuer
   * and the projects on the shared path all use PUBLIC_URL's host, docs/decisions/0048): such a
   * passkey is refused by name and never signalled to the browser as unknown.
   */
  heldElsewhere?(id: string): Promise<boolean>;
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

/**
 * A project's recovery codes as the sign-in page uses them (issue 37, docs/decisions/0051): the person
 * an identity names, and one of their codes used (once, with its event and the notice mailed).
 */
export interface RecoveryCodeStore {
  personOf(identity: Identity): Promise<{ id: string } | null>;
  /** Answers the codes left, or null when `code` is none of theirs left unused. */
  use(userId: string, code: string, origin: { ip: string | null; userAgent: string | null; clientId: string | null }): Promise<number | null>;
}

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
/** Failed answers to page 1's discoverable request one client address may post per project and window (docs/decisions/0047). */
export const DISCOVERIES_FAILED_PER_CLIENT = 30;
/** QuickCodes one client address may try per project and window, at any addresses. */
export const QUICK_CODE_TRIES_PER_CLIENT = 20;

/** What a QuickCode is kept as (keyed, so a copy of the database yields no code). */
export const quickCodeHashOf = (secretBox: SecretBox, issuerKey: string, userId: string, code: string) =>
  secretBox.hmac('quick-code', `${issuerKey}\n${userId}\n${code}`);

/** Where passkeys work: the issuer's host is the relying party (rpID), PUBLIC_URL's origin the origin. */
export function relyingPartyOf(publicUrl: string): { rpID: string; origin: string } {
  const url = new URL(publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/**
 * An issuer's relying party (docs/decisions/0047): the rpID new passkeys are made under, the origins
 * a passkey may be used at (the project's own host and custom domain), and the rpID a passkey stored
 * without one was made under (PUBLIC_URL's host).
 */
export interface RelyingParty {
  rpID: string;
  origins: string[];
  legacyRpID: string;
  /**
   * docs/decisions/0049: at a custom domain whose relying party is the own host's, the custom
   * domain's host name: where the browser lacks Related Origin Requests the page makes and asks for
   * passkeys of this rpID instead (both are offered; the page script picks).
   */
  localRpID?: string | null;
}

/** The rpID a stored passkey is verified against: its own, or, stored before rpIDs were, the legacy one. */
export const rpIdOf = (rp: RelyingParty, passkey: Pick<Passkey, 'rpId'>): string => passkey.rpId ?? rp.legacyRpID;

/**
 * The Signal API's picture of a person for the browser (docs/decisions/0047, 0049): for each rpID
 * the page offers, the passkeys of theirs this relying party accepts (`active`, of that rpID) and
 * their identity as the passkeys' name. `userID`: the user handle registration gave.
 */
export function acceptedCredentialSignals(
  rp: RelyingParty,
  userID: string,
  active: ReadonlyArray<Pick<Passkey, 'id' | 'rpId'>>,
  identity: string,
): PasskeySignal[] {
  return allowedRpIDs(rp).flatMap((rpID): PasskeySignal[] => [
    { signalName: 'allAcceptedCredentials', rpID, userID, allAcceptedCredentialIDs: active.filter((p) => rpIdOf(rp, p) === rpID).map((p) => p.id) },
    { signalName: 'currentUserDetails', rpID, userID, userName: identity, userDisplayName: identity },
  ]);
}

/**
 * docs/decisions/0049: the rpIDs the project allows now, for making passkeys and using them: its
 * relying party's, and at a custom domain of a project with an own host the custom domain's host.
 * A passkey stored for any other (a custom domain since removed or changed, the shared host before
 * a move) is refused, whatever its signature.
 */
export const allowedRpIDs = (rp: RelyingParty): string[] => (rp.localRpID ? [rp.rpID, rp.localRpID] : [rp.rpID]);

/**
 * The origins a passkey of `rpID` may be used at: every origin of the project for its relying
 * party's (the own host lists them for Related Origin Requests); for the custom domain's own rpID,
 * only the origins under that name (no related origins are published for it).
 */
function originsFor(rp: RelyingParty, rpID: string): string[] {
  if (rpID === rp.rpID) return rp.origins;
  return rp.origins.filter((origin) => {
    const host = new URL(origin).hostname;
    return host === rpID || host.endsWith(`.${rpID}`);
  });
}

/** The allowed rpID an answer's authenticator data was made for (its rpIdHash), or the relying party's when none is. */
export function answeredRpID(rp: RelyingParty, authenticatorData: unknown): string {
  return allowedRpIDs(rp).find((rpID) => assertedFor(authenticatorData, rpID)) ?? rp.rpID;
}

/**
 * The options a page offers, JSON: the relying party's, and at a custom domain with an own host
 * the same (one challenge) for the custom domain's rpID, which the page script uses where the
 * browser lacks Related Origin Requests (docs/decisions/0049). `kind`: where the rpID is in them.
 */
export function offeredOptions(
  rp: RelyingParty,
  options: { rp?: { id?: string }; rpId?: string },
  kind: 'create' | 'get',
): { optionsJson: string; localOptionsJson?: string } {
  const optionsJson = JSON.stringify(options);
  if (!rp.localRpID) return { optionsJson };
  const local = kind === 'create' ? { ...options, rp: { ...options.rp, id: rp.localRpID } } : { ...options, rpId: rp.localRpID };
  return { optionsJson, localOptionsJson: JSON.stringify(local) };
}

/**
 * A registration answer to offeredOptions' challenge, verified for one of the rpIDs offered, from
 * an origin that rpID allows, user verified; answers the credential, the rpID it was made
 * under and its backup flags (stored with it), or null.
 */
export async function verifiedRegistration(
  rp: RelyingParty,
  response: RegistrationResponseJSON,
  challenge: string,
  options: { userVerified: boolean } = { userVerified: true },
) {
  const verification = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: rp.origins,
    expectedRPID: allowedRpIDs(rp),
    requireUserVerification: options.userVerified,
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
  }).catch(() => null);
  if (!verification?.verified) return null;
  const { credential, rpID, origin, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  const madeFor = rpID ?? rp.rpID;
  if (!originsFor(rp, madeFor).includes(origin)) return null;
  // docs/decisions/0050: BE and BS from the authenticator data, stored so pages can say which are synced.
  return { credential, rpID: madeFor, backupEligible: credentialDeviceType === 'multiDevice', backedUp: credentialBackedUp };
}

/** The rpID an assertion was made for is the first 32 bytes of its authenticator data, as SHA-256: is it `rpID`'s? */
export function assertedFor(authenticatorData: unknown, rpID: string): boolean {
  if (typeof authenticatorData !== 'string') return false;
  const data = Buffer.from(authenticatorData, 'base64url');
  return data.length >= 32 && data.subarray(0, 32).equals(createHash('sha256').update(rpID).digest());
}

/**
 * A sign-in answer for a stored passkey, checked under the rpID it was made with at one of the
 * project's origins, user verification required (docs/decisions/0013, 0047): `'wrongRp'` when it was
 * made for another rpID, its new signature counter when it verifies, else null.
 */
export async function checkedAssertion(
  rp: RelyingParty,
  device: Passkey,
  response: AuthenticationResponseJSON,
  challenge: string,
): Promise<'wrongRp' | { newCounter: number; backedUp: boolean } | null> {
  const rpID = rpIdOf(rp, device);
  // docs/decisions/0049: its own rpID, and only while the project allows it.
  if (!allowedRpIDs(rp).includes(rpID) || !assertedFor(response.response?.authenticatorData, rpID)) return 'wrongRp';
  const verification = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: originsFor(rp, rpID),
    expectedRPID: rpID,
    credential: { id: device.id, publicKey: isoBase64URL.toBuffer(device.publicKey), counter: device.counter, transports: device.transports },
    requireUserVerification: true,
  }).catch(() => null);
  return verification?.verified
    ? { newCounter: verification.authenticationInfo.newCounter, backedUp: verification.authenticationInfo.credentialBackedUp }
    : null;
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
export function transportsFor(method: 'device' | 'phone', stored: readonly string[] | undefined): AuthenticatorTransport[] {
  if (method === 'phone') return ['hybrid'];
  const local = (stored ?? []).filter((t) => t !== 'hybrid') as AuthenticatorTransport[];
  return local.length > 0 ? local : ['internal'];
}

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
 * The key algorithms a passkey may be made with, most preferred first: EdDSA, ES256, RS256 (COSE
 * -8, -7, -257). Named rather than left to the library, whose default asks the runtime whether it
 * has ML-DSA (SubtleCrypto.supports: an experimental-feature warning on Node 24's stderr) and then
 * offers post-quantum keys that only an experimental verifier could check.
 */
export const PASSKEY_ALGORITHMS = [-8, -7, -257];

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
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    excludeCredentials: p.active.map((d) => ({ id: d.id, transports: d.transports as AuthenticatorTransport[] })),
    // Browser Login only: a passkey on this device; Mobile Login only: one on another (a phone, by QR).
    authenticatorSelection: {
      // docs/decisions/0047: discoverable, so a relying party of the project's own can offer them
      // without an address (autofill, "Sign in with a passkey"); named by the identity, the user handle the sub.
      residentKey: 'required',
      userVerification: 'required',
      ...(login.browser && !login.mobile ? { authenticatorAttachment: 'platform' as const } : {}),
      ...(login.mobile && !login.browser ? { authenticatorAttachment: 'cross-platform' as const } : {}),
    },
  });
}
