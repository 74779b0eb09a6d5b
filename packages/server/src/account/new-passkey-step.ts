import { verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import { ACCOUNT_PAGE_REGISTRATION, knownTransports, parseJson, registrationOptions } from '../oidc/passkeys.ts';
import { errorPage, textsOf } from '../oidc/pages/views.ts';
import { PENDING_MS, type AccountFlow, type SignedIn } from './account-flow.ts';
import { html, type AccountRequest, type AccountSite } from './account-site.ts';
import { accountTextsOf } from './account-views.ts';
import { newPasskeyPage } from './new-passkey-views.ts';

/** The most active passkeys one person may have: the account page creates no more. */
export const PASSKEYS_MAX = 20;
const PASSKEY_COOKIE = 'lk_account_passkey';

/** A passkey being created on the page: the challenge its options carried. */
interface PendingPasskey {
  session: string;
  challenge: string;
  expiresAt: number;
}

/** The options of a new passkey, its challenge kept for the answer; the page shows them. */
async function showNewPasskey(flow: AccountFlow, site: AccountSite, reply: FastifyReply, signed: SignedIn, error?: string) {
  const { active } = await flow.passkeysOf(site, signed);
  if (active.length >= PASSKEYS_MAX) {
    const t = accountTextsOf(site.brand);
    return html(reply, 409, errorPage(t.tooManyPasskeys(PASSKEYS_MAX), null, site.brand, { heading: t.addPasskey }));
  }
  // docs/decisions/0047: the project's relying party (its own host's name when it has one).
  const options = await registrationOptions({
    rpName: site.brand.name,
    rpID: site.site.rpID,
    userName: signed.user.identity,
    userID: isoUint8Array.fromUTF8String(signed.user.id),
    active,
    login: site.state.login,
  });
  const pending: PendingPasskey = {
    session: signed.sessionRow,
    challenge: options.challenge,
    expiresAt: flow.deps.clock.now().getTime() + PENDING_MS,
  };
  flow.setSealedCookie(site, reply, PASSKEY_COOKIE, 'passkey', pending);
  const body = newPasskeyPage(site.links, { csrf: signed.csrf, optionsJson: JSON.stringify(options), ...(error ? { error } : {}) }, site.brand);
  return html(reply, error ? 400 : 200, body);
}

/** The browser's answer to the options, verified against the challenge this session was given; null when it does not hold. */
async function verifiedAnswer(flow: AccountFlow, site: AccountSite, request: AccountRequest, signed: SignedIn) {
  const pending = flow.unseal<PendingPasskey>(site, request.cookies[PASSKEY_COOKIE], 'passkey');
  if (!pending || pending.session !== signed.sessionRow || pending.expiresAt <= flow.deps.clock.now().getTime()) return null;
  const response = parseJson<RegistrationResponseJSON>(request.body?.response);
  const verification = response
    ? await verifyRegistrationResponse({
        response,
        expectedChallenge: pending.challenge,
        expectedOrigin: site.site.origins,
        expectedRPID: site.site.rpID,
        requireUserVerification: true,
      }).catch(() => null)
    : null;
  if (!verification?.verified) return null;
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  // docs/decisions/0050: BE and BS from the authenticator data, so the page can say which are synced.
  return { ...credential, backupEligible: credentialDeviceType === 'multiDevice', backedUp: credentialBackedUp };
}

/** Create another passkey on this device: the browser's dialog, its answer verified and stored. */
export function registerNewPasskeyStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  flow.show(pages, `${page}/passkeys/new`, async (site, signed, _request, reply) => showNewPasskey(flow, site, reply, signed), { fresh: true });

  flow.change(
    pages,
    `${page}/passkeys/new`,
    async (site, signed, request, reply) => {
      if (await flow.tooManyChanges(site, signed)) return flow.tooManyPage(site, reply);
      const t = textsOf(site.brand);
      const credential = await verifiedAnswer(flow, site, request, signed);
      if (!credential) return showNewPasskey(flow, site, reply, signed, t.passkeyNotCreated);
      const { current } = await flow.passkeysOf(site, signed);
      // A passkey added here is registered as the one this session began with was (a QuickCode's stays a QuickCode's, docs/decisions/0017).
      // One with no passkey (an emailed code, or a QuickCode and "Not now": the session does not say)
      // is registered as the account page's, which limitRegCodeVerified treats as a QuickCode's.
      const registeredWith = current?.registeredWith ?? ACCOUNT_PAGE_REGISTRATION;
      const stored = await flow.changes.addPasskey(flow.actorOf(site, signed, request), {
        id: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: knownTransports(credential.transports),
        name: deviceNameFromUserAgent(request.headers['user-agent']),
        ip: request.ip,
        country: flow.deps.eventsOf(site.state.projectId).countryOf(request.ip),
        registeredWith,
        rpId: site.site.rpID,
        backupEligible: credential.backupEligible,
        backedUp: credential.backedUp,
      });
      if (!stored) return showNewPasskey(flow, site, reply, signed, t.passkeyExists);
      reply.clearCookie(PASSKEY_COOKIE, flow.cookieOptions(site));
      return reply.redirect(flow.doneAt(site, 'added'), 303);
    },
    { fresh: true },
  );
}
