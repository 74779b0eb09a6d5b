import type { FastifyInstance } from 'fastify';
import { passkeyNameOf } from '@latchkey/domain';
import { ACCOUNT_CLIENT_ID } from '../issuer/account-client.ts';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { PageBrand, PasskeySignal } from '../oidc/pages/views.ts';
import type { Device } from '../people/devices.repository.ts';
import { RECOVERY_CODES_PER_SET } from '../oidc/recovery-codes.ts';
import { acceptedCredentialSignals } from '../oidc/passkeys.ts';
import { DONE, siteRelyingParty, type AccountFlow, type SignedIn } from './account-flow.ts';
import { html, notFoundPage, type AccountSite } from './account-site.ts';
import type { FallbackVerification } from './account-texts.ts';
import { accountTextsOf } from './account-views.ts';
import { accountPage, removePasskeyPage, type AccountPasskey, type AccountView } from './passkeys-views.ts';

/** What the project's users verify their identity with when they have no passkey (docs/decisions/0018). */
function fallbackOf(brand: PageBrand): FallbackVerification {
  return brand.verifyBy === 'standardEmail' ? 'link' : brand.verifyBy === 'fullCustom' ? 'custom' : 'code';
}

const asPasskey = (d: Device, current: Device | null): AccountPasskey => ({
  id: d.id,
  name: d.name,
  createdAt: d.createdAt,
  lastUsedAt: d.lastUsedAt,
  country: d.country,
  current: current?.id === d.id,
  synced: d.backupEligible ?? null,
});

/**
 * The Signal API (where the browser supports it): the passkeys this relying party accepts for the
 * person (the browser's password manager may forget the others: removed here, revoked in the
 * console), and their identity as the passkeys' name (changed by an administrator, say). Only
 * passkeys of the page's rpID count (one made under the shared host before a move is another
 * relying party's); the user handle is the one registration gave (the user id's UTF-8 bytes).
 */
function signalsOf(flow: AccountFlow, site: AccountSite, signed: SignedIn, active: Device[]): PasskeySignal[] {
  const userID = isoBase64URL.fromBuffer(isoUint8Array.fromUTF8String(signed.user.id));
  // docs/decisions/0049: at a custom domain with an own host, the custom domain's own rpID's passkeys too, signalled under it.
  return acceptedCredentialSignals(siteRelyingParty(flow, site), userID, active, signed.user.identity);
}

/** The page: the person's active passkeys, and the sessions they are signed in with (this browser's first). */
async function viewOf(
  flow: AccountFlow,
  site: AccountSite,
  signed: SignedIn,
  extra: Pick<AccountView, 'notice' | 'renaming'> = {},
): Promise<AccountView> {
  const { active, current, sessions, byRef } = await flow.passkeysOf(site, signed);
  const names = await flow.deps.applicationNames(site.state.projectId, [...new Set(sessions.flatMap((s) => s.clientIds))]);
  const codes = await flow.recovery.codesOf(site.state.projectId, signed.user.id);
  const t = accountTextsOf(site.brand);
  return {
    identity: signed.user.identity,
    csrf: signed.csrf,
    passkeys: active.map((d) => asPasskey(d, current)),
    signals: signalsOf(flow, site, signed, active),
    sessions: sessions
      .map((s) => ({
        id: s.id,
        startedAt: s.startedAt,
        expiresAt: s.expiresAt,
        current: s.id === signed.sessionRow,
        passkeyName: s.deviceRef ? (byRef.get(s.deviceRef)?.name ?? null) : null,
        applications: s.clientIds.map((c) => (c === ACCOUNT_CLIENT_ID ? t.accountPage : (names.get(c) ?? c))),
      }))
      .sort((a, b) => Number(b.current) - Number(a.current)),
    quickCodes: site.state.quickCodes.enabled && signed.user.email !== null,
    recoveryCodes: { left: codes.left, total: RECOVERY_CODES_PER_SET, hasSet: codes.createdAt !== null },
    ...extra,
  };
}

/**
 * The page itself (`{issuer}/account`, with the notice of the change it came back from), and its
 * passkeys: rename one, remove one after a confirm (the last one after the warning of what the next
 * sign-in needs).
 */
export function registerPasskeysStep(pages: FastifyInstance, flow: AccountFlow, page: string): void {
  flow.show(pages, page, async (site, signed, request, reply) => {
    const done = DONE.find((d) => d === request.query.done);
    const view = await viewOf(flow, site, signed, done ? { notice: accountTextsOf(site.brand).done[done] } : {});
    return html(reply, 200, accountPage(site.links, view, site.brand));
  });

  flow.change(pages, `${page}/passkeys/rename`, async (site, signed, request, reply) => {
    const mpinId = request.body?.passkey ?? '';
    if (await flow.tooManyChanges(site, signed)) return flow.tooManyPage(site, reply);
    const typed = request.body?.name ?? '';
    const name = passkeyNameOf(typed);
    if (name === null) {
      const view = await viewOf(flow, site, signed, {
        renaming: { id: mpinId, value: typed.slice(0, 256), error: accountTextsOf(site.brand).invalidName },
      });
      if (!view.passkeys.some((p) => p.id === mpinId)) throw notFoundPage(site.brand);
      return html(reply, 400, accountPage(site.links, view, site.brand));
    }
    const renamed = await flow.changes.rename(flow.actorOf(site, signed, request), mpinId, name);
    if (!renamed) throw notFoundPage(site.brand);
    return reply.redirect(flow.doneAt(site, 'renamed'), 303);
  });

  const removing = { fresh: true };
  flow.show(
    pages,
    `${page}/passkeys/remove`,
    async (site, signed, request, reply) => {
      const { active, current } = await flow.passkeysOf(site, signed);
      const device = active.find((d) => d.id === request.query.passkey);
      if (!device) throw notFoundPage(site.brand);
      const passkey = asPasskey(device, current);
      const last = active.length === 1;
      return html(reply, 200, removePasskeyPage(site.links, { csrf: signed.csrf, passkey, last, fallback: fallbackOf(site.brand) }, site.brand));
    },
    removing,
  );

  flow.change(
    pages,
    `${page}/passkeys/remove`,
    async (site, signed, request, reply) => {
      const removed = await flow.changes.remove(flow.actorOf(site, signed, request), request.body?.passkey ?? '');
      if (!removed) throw notFoundPage(site.brand);
      flow.deps.logoutNoticesQueued();
      return reply.redirect(flow.doneAt(site, 'removed'), 303);
    },
    removing,
  );
}
