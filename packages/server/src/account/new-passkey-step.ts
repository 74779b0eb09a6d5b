import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import {
  ACCOUNT_PAGE_REGISTRATION,
  knownTransports,
  offeredOptions,
  parseJson,
  registrationOptions,
  verifiedRegistration,
} from '../oidc/passkeys.ts';
import { errorPage, escapeHtml, signInPage, textsOf } from '../oidc/pages/views.ts';
import { PENDING_MS, siteRelyingParty, type AccountFlow, type SignedIn } from './account-flow.ts';
import { html, type AccountRequest, type AccountSite } from './account-site.ts';
import { accountTextsOf } from './account-views.ts';
import { newPasskeyPage } from './new-passkey-views.ts';
import { recoveryTextsOf, untilText } from '../oidc/recovery-codes.ts';
import type { EmailRecovery } from '../people/recovery.repository.ts';

/** The most active passkeys one person may have: the account page creates no more. */
export const PASSKEYS_MAX = 20;
const PASSKEY_COOKIE = 'lk_account_passkey';

/** A passkey being created on the page: the challenge its options carried. */
interface PendingPasskey {
  session: string;
  challenge: string;
  expiresAt: number;
}

/**
 * docs/decisions/0051: a person who holds passkeys but signed in without one (an emailed code or
 * link, the project's own verification) adds one only once the project's emailRecoveryDelay has
 * passed since that sign-in's recovery started ("This wasn't me" ends it first). Answers the recovery the new passkey ends, or the page that says
 * until when (null: no delay applies).
 */
async function delayed(
  flow: AccountFlow,
  site: AccountSite,
  request: AccountRequest,
  signed: SignedIn,
): Promise<{ recovery: EmailRecovery | null } | { page: string }> {
  const { active, current } = await flow.passkeysOf(site, signed);
  if (current !== null || active.length === 0 || site.state.emailRecoveryDelayMs <= 0) return { recovery: null };
  const gate = await flow.recovery.passkeyAfterEmail(flow.personOf(site, signed), {
    delayMs: site.state.emailRecoveryDelayMs,
    stopUrl: flow.stopUrl(site),
    origin: flow.originOf(request),
    brand: site.brand,
  });
  if (gate.allowed) return { recovery: gate.recovery };
  const r = recoveryTextsOf(site.brand);
  const body = `<h1>${escapeHtml(r.delayHeading)}</h1>
<p class="status" role="status">${escapeHtml(r.delayText(untilText(site.brand, gate.until), signed.user.email !== null))}</p>
<div class="links"><a href="${escapeHtml(site.links.base)}">${escapeHtml(accountTextsOf(site.brand).backToAccount)}</a></div>`;
  return { page: signInPage(r.delayHeading, body, site.brand) };
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
  const offered = offeredOptions(siteRelyingParty(flow, site), options, 'create');
  const body = newPasskeyPage(site.links, { csrf: signed.csrf, ...offered, ...(error ? { error } : {}) }, site.brand);
  return html(reply, error ? 400 : 200, body);
}

/** The browser's answer to the options, verified against the challenge this session was given; null when it does not hold. */
async function verifiedAnswer(flow: AccountFlow, site: AccountSite, request: AccountRequest, signed: SignedIn) {
  const pending = flow.unseal<PendingPasskey>(site, request.cookies[PASSKEY_COOKIE], 'passkey');
  if (!pending || pending.session !== signed.sessionRow || pending.expiresAt <= flow.deps.clock.now().getTime()) return null;
  const response = parseJson<RegistrationResponseJSON>(request.body?.response);
  return response ? verifiedRegistration(siteRelyingParty(flow, site), response, pending.challenge) : null;
}

/** Create another passkey on this device: the browser's dialog, its answer verified and stored. */
export function registerNewPasskeyStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  flow.show(
    pages,
    `${page}/passkeys/new`,
    async (site, signed, request, reply) => {
      const delay = await delayed(flow, site, request, signed);
      if ('page' in delay) return html(reply, 403, delay.page);
      return showNewPasskey(flow, site, reply, signed);
    },
    { fresh: true },
  );

  flow.change(
    pages,
    `${page}/passkeys/new`,
    async (site, signed, request, reply) => {
      if (await flow.tooManyChanges(site, signed)) return flow.tooManyPage(site, reply);
      const delay = await delayed(flow, site, request, signed);
      if ('page' in delay) return html(reply, 403, delay.page);
      const t = textsOf(site.brand);
      const verified = await verifiedAnswer(flow, site, request, signed);
      if (!verified) return showNewPasskey(flow, site, reply, signed, t.passkeyNotCreated);
      const { credential } = verified;
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
        // The rpID it was made for (docs/decisions/0049: the custom domain's own, without Related Origin Requests).
        rpId: verified.rpID,
        // docs/decisions/0050: BE and BS, so the page can say which are synced.
        backupEligible: verified.backupEligible,
        backedUp: verified.backedUp,
      });
      if (!stored) return showNewPasskey(flow, site, reply, signed, t.passkeyExists);
      // The recovery the passkey waited for has done its work.
      if (delay.recovery) await flow.recovery.endUsed(site.state.projectId, delay.recovery);
      reply.clearCookie(PASSKEY_COOKIE, flow.cookieOptions(site));
      return reply.redirect(flow.doneAt(site, 'added'), 303);
    },
    { fresh: true },
  );
}
