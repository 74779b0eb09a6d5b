import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import { browserWarning, ceremonyAttributes, errorLine, PASSKEY_SCRIPTS } from '../oidc/pages/passkey-views.ts';
import { knownTransports, parseJson, registrationOptions, verifiedRegistration } from '../oidc/passkeys.ts';
import { escapeHtml, signInPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { userDevices } from '../people/devices.repository.ts';
import { findProjectUser, type ProjectUser } from '../people/end-users.repository.ts';
import { PENDING_MS, siteRelyingParty, type AccountFlow } from './account-flow.ts';
import { html, type AccountRequest, type AccountSite } from './account-site.ts';
import { accountTextsOf, hidden, pathOf, type AccountLinks } from './account-views.ts';
import { recoveryTextsOf } from '../oidc/recovery-codes.ts';

/**
 * An administrator's re-enrollment link (issue 37, docs/decisions/0051): `{issuer}/account/reenroll?t=…`
 * lets the person it is for create a passkey on the device that opens it, with no other proof;
 * single use (the passkey and the link's use commit together), it expires, only its keyed hash is
 * stored. The page then says it is done and leads to the account page (which signs in with the new
 * passkey). The ceremony's challenge is sealed in a cookie bound to the link.
 */

const REENROLL_COOKIE = 'lk_account_reenroll';

interface PendingReenrollment {
  token: string;
  challenge: string;
  expiresAt: number;
}

type Shown = { kind: 'ceremony'; token: string; identity: string; optionsJson: string; error?: string } | { kind: 'gone' } | { kind: 'done' };

function reenrollPage(links: AccountLinks, shown: Shown, brand: PageBrand): string {
  const r = recoveryTextsOf(brand);
  const heading = r.reenrollHeading(brand.name);
  if (shown.kind !== 'ceremony') {
    const text =
      shown.kind === 'done'
        ? `<p class="status" role="status">${escapeHtml(r.reenrollDone)}</p>`
        : `<p class="error" role="alert">${escapeHtml(r.reenrollGone)}</p>`;
    const next =
      shown.kind === 'done' ? `<div class="links"><a href="${escapeHtml(links.base)}">${escapeHtml(accountTextsOf(brand).title)}</a></div>` : '';
    return signInPage(heading, `<h1>${escapeHtml(heading)}</h1>\n${text}\n${next}`, brand);
  }
  return signInPage(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(r.reenrollText(shown.identity))}</p>
<form method="post" action="${escapeHtml(pathOf(links, 'reenroll'))}" ${ceremonyAttributes(brand, 'register', shown.optionsJson)}>
${hidden('t', shown.token)}<input type="hidden" name="response" value="">
${errorLine(shown.error)}
<button class="primary" type="submit">${escapeHtml(accountTextsOf(brand).addPasskey)}</button>
</form>
${browserWarning(brand)}`,
    brand,
    PASSKEY_SCRIPTS,
  );
}

export function registerReenrollStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  /** The link's person while it is live, or null. */
  async function personOf(site: AccountSite, token: unknown): Promise<ProjectUser | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) return null;
    const link = await flow.recovery.liveLink(site.state.projectId, token);
    const user = link ? await findProjectUser(flow.deps.db, site.state.projectId, link.userId) : null;
    return user && !user.blocked ? user : null;
  }

  async function ceremony(site: AccountSite, reply: FastifyReply, user: ProjectUser, token: string, error?: string) {
    const active = (await userDevices(flow.deps.db, site.state.projectId, user.id)).filter((d) => !d.revoked);
    const options = await registrationOptions({
      rpName: site.brand.name,
      rpID: site.site.rpID,
      userName: user.identity,
      userID: isoUint8Array.fromUTF8String(user.id),
      active,
      login: site.state.login,
    });
    const pending: PendingReenrollment = { token, challenge: options.challenge, expiresAt: flow.deps.clock.now().getTime() + PENDING_MS };
    flow.setSealedCookie(site, reply, REENROLL_COOKIE, 'reenroll', pending);
    const shown: Shown = { kind: 'ceremony', token, identity: user.identity, optionsJson: JSON.stringify(options), ...(error ? { error } : {}) };
    return html(reply, error ? 400 : 200, reenrollPage(site.links, shown, site.brand));
  }

  pages.get(`${page}/reenroll`, async (request: AccountRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    if (!site) return reply;
    const user = await personOf(site, request.query.t);
    if (!user) return html(reply, 404, reenrollPage(site.links, { kind: 'gone' }, site.brand));
    return ceremony(site, reply, user, request.query.t as string);
  });

  pages.post(`${page}/reenroll`, async (request: AccountRequest, reply) => {
    const site = await flow.siteOf(request, reply);
    if (!site) return reply;
    const token = request.body?.t;
    const user = await personOf(site, token);
    if (!user || typeof token !== 'string') return html(reply, 404, reenrollPage(site.links, { kind: 'gone' }, site.brand));
    const t = textsOf(site.brand);
    const pending = flow.unseal<PendingReenrollment>(site, request.cookies[REENROLL_COOKIE], 'reenroll');
    const response = parseJson<RegistrationResponseJSON>(request.body?.response);
    // The page offers the project's rpID alone (no custom domain's own: localRpID null).
    const verified =
      pending && pending.token === token && pending.expiresAt > flow.deps.clock.now().getTime() && response
        ? await verifiedRegistration({ ...siteRelyingParty(flow, site), localRpID: null }, response, pending.challenge)
        : null;
    if (!verified) return ceremony(site, reply, user, token, t.passkeyNotCreated);
    const { credential } = verified;
    const done = await flow.recovery.reenroll(
      { projectId: site.state.projectId, id: user.id, identity: user.identity, email: user.email },
      token,
      {
        id: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        transports: knownTransports(credential.transports),
        name: deviceNameFromUserAgent(request.headers['user-agent']),
        ip: request.ip,
        country: flow.deps.eventsOf(site.state.projectId).countryOf(request.ip),
        registeredWith: 'reenrollment_link',
        rpId: verified.rpID,
        // docs/decisions/0050: BE and BS, as every passkey registered since.
        backupEligible: verified.backupEligible,
        backedUp: verified.backedUp,
      },
      flow.originOf(request),
    );
    if (done === 'exists') return ceremony(site, reply, user, token, t.passkeyExists);
    reply.clearCookie(REENROLL_COOKIE, flow.cookieOptions(site));
    return html(reply, done === 'done' ? 200 : 404, reenrollPage(site.links, { kind: done === 'done' ? 'done' : 'gone' }, site.brand));
  });
}
