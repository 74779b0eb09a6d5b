import { createHash } from 'node:crypto';
import { verifyRegistrationResponse, type RegistrationResponseJSON } from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Clock } from '../clock.ts';
import { randomToken, safeEqual, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { DomainError, errorStatus, passkeyNameOf } from '@latchkey/domain';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import type { IssuerEvents } from '../events/end-user-event.ts';
import { ACCOUNT_CLIENT_ID, accountPath } from '../issuer/account-client.ts';
import { ISSUER_SESSION_COOKIE } from '../oidc/issuer-provider.ts';
import { hideFromOpenApi, pinToPublicUrl, strictTransportFor } from '../oidc/mount.ts';
import {
  ACCOUNT_PAGE_REGISTRATION,
  mayIssueQuickCodes,
  newQuickCode,
  parseJson,
  QUICK_CODE_TTL_MS,
  knownTransports,
  registrationOptions,
  relyingPartyOf,
} from '../oidc/passkeys.ts';
import {
  accountMessagePage,
  accountPage,
  accountQuickCodePage,
  accountTextsOf,
  newPasskeyPage,
  removePasskeyPage,
  type AccountLinks,
  type AccountPasskey,
  type AccountView,
} from './account-views.ts';
import type { FallbackVerification } from './account-texts.ts';
import { requestOrigin, type RequestOrigin } from '../oidc/pages/site.ts';
import { takeFormsOnly } from '../oidc/pages/sign-in-pages.ts';
import { errorPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import { oidcRefs, sessionsOfUser } from '../oidc/payloads.repository.ts';
import { accountChanges } from './account-changes.ts';
import { issuerAt, type IssuerSite } from '../issuer/custom-domains.ts';
import { userDevices, type Device } from '../people/devices.repository.ts';
import { findIssuerState, type IssuerState } from '../issuer/issuer-state.repository.ts';
import { hitAll } from '../db/rate-limits.repository.ts';
import { brandCsp, projectBrand, refusalPage, startAgain } from '../issuer/project-pages.ts';
import { findProjectUser, type ProjectUser } from '../people/end-users.repository.ts';
import { verificationSettingsOf, withIdentity } from '../issuer/verification.ts';

/**
 * The end user's own page at a project's issuer, `{issuer}/account` (issue 24, docs/decisions/0040):
 * their passkeys (rename, add one, get a QuickCode for another device, remove), the sessions they
 * are signed in with (sign out of one, of the others, here).
 *
 * The page signs in as any application does, through the issuer's own authorization endpoint, as a
 * client every project's issuer has (ACCOUNT_CLIENT_ID, redirected to `{issuer}/account/callback`):
 * so the sign-in is the project's own — passkey first for a user who has one, its verification
 * method otherwise, QuickCodes, a blocked user refused, its events. The page then reads the
 * browser's provider session (the issuer's session cookie) on every request: signing out at the
 * issuer, revoking the passkey it began with or blocking the user ends it here too. Each change is
 * a form posted with a token bound to that session, in one transaction with its audit event.
 */

export interface AccountPagesDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  publicUrl: string;
  providerFor(state: IssuerState): Promise<Provider>;
  eventsOf(projectId: string): IssuerEvents;
  /** Sends the back-channel logout notices a change queued now. */
  logoutNoticesQueued(): void;
  /** The applications' names by client id (the applications' own repository answers it). */
  applicationNames(projectId: string, clientIds: string[]): Promise<Map<string, string>>;
}

type AccountRequest = FastifyRequest<{
  Params: { project: string; session?: string };
  Querystring: Record<string, string | undefined>;
  Body: Record<string, string | undefined> | undefined;
}>;

/** One request's project, as the page is served for it. */
interface AccountSite {
  state: IssuerState;
  site: IssuerSite;
  brand: PageBrand;
  provider: Provider;
  links: AccountLinks;
}

/** The person signed in on this browser, and their session. */
interface SignedIn {
  user: ProjectUser;
  /** The provider session's row id (oidcRefs.id), as sessionsOfUser answers it. */
  sessionRow: string;
  /** When the person last proved who they are in this session (milliseconds since the epoch). */
  signedInAt: number;
  csrf: string;
}

/** The state of a sign-in to the page under way (sealed in a cookie scoped to the page). */
interface PendingSignIn {
  state: string;
  expiresAt: number;
}

/** A passkey being created on the page: the challenge its options carried. */
interface PendingPasskey {
  session: string;
  challenge: string;
  expiresAt: number;
}

const SIGN_IN_COOKIE = 'lk_account_sign_in';
/** What adds or removes a way into the account needs a sign-in this recent (else it is made again). */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;
/** The most active passkeys one person may have: the account page creates no more. */
export const PASSKEYS_MAX = 20;
/** Changes one person may make on the page per window (each an audit event). */
export const CHANGES_PER_WINDOW = 30;
const CHANGES_WINDOW_MS = 10 * 60 * 1000;
const PASSKEY_COOKIE = 'lk_account_passkey';
const PENDING_MS = 10 * 60 * 1000;
/** The notices a change leaves for the page it returns to (`?done=`). */
const DONE = ['renamed', 'removed', 'added', 'signedOut', 'othersSignedOut'] as const;
type Done = (typeof DONE)[number];

class PageAnswer extends Error {
  constructor(
    readonly status: number,
    readonly html: string,
  ) {
    super('page');
  }
}

export async function registerAccountPages(app: FastifyInstance, deps: AccountPagesDeps): Promise<void> {
  const { db, clock, secretBox, publicUrl } = deps;
  const origin = new URL(publicUrl);
  const refs = oidcRefs(secretBox);
  const sites = new WeakMap<FastifyRequest, AccountSite>();

  await app.register(async (pages) => {
    hideFromOpenApi(pages);
    takeFormsOnly(pages);
    pages.addHook('onRequest', async (request) => pinToPublicUrl(request, origin));
    pages.addHook('onSend', async (request, reply, payload) => {
      const brand = sites.get(request)?.brand;
      reply.header('Content-Security-Policy', brandCsp(brand ?? { name: '', idLabel: '', language: 'en' }));
      reply.header('Cache-Control', 'no-store');
      strictTransportFor(request, reply, origin);
      return payload;
    });
    pages.setErrorHandler(async (error, request, reply) => {
      const brand = sites.get(request)?.brand ?? { name: 'Latchkey', idLabel: 'Email', language: 'en' as const };
      if (error instanceof PageAnswer) return html(reply, error.status, error.html);
      const t = textsOf(brand);
      const status = (error as { statusCode?: unknown }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500)
        return html(reply, status, errorPage(t.badAddress(startAgain(brand)), null, brand));
      if (error instanceof DomainError && error.code === 'project_closed') return html(reply, 403, refusalPage(brand, 'closed'));
      // The project or what the form named went meanwhile (another tab, an administrator).
      if (error instanceof DomainError && errorStatus[error.code] < 500) {
        return html(reply, errorStatus[error.code], errorPage(t.badAddress(startAgain(brand)), null, brand));
      }
      request.log.error({ err: error }, 'account page failed');
      return html(reply, 500, errorPage(t.serverError(startAgain(brand)), null, brand));
    });

    const html = (reply: FastifyReply, status: number, body: string) => reply.status(status).type('text/html; charset=utf-8').send(body);
    const notFoundPage = (brand: PageBrand) => new PageAnswer(404, errorPage(textsOf(brand).noSuchIssuer(startAgain(brand)), null, brand));

    /**
     * The project whose issuer this request reached (its custom domain when it has one); null when
     * the project moved to its custom domain (the browser was sent there); a page answers otherwise.
     */
    async function siteOf(request: AccountRequest, reply: FastifyReply): Promise<AccountSite | null> {
      const state = await findIssuerState(db, request.params.project);
      const fallback: PageBrand = { name: 'Latchkey', idLabel: 'Email', language: 'en' };
      if (!state) throw notFoundPage(fallback);
      const at = issuerAt(request.raw, state, publicUrl);
      if (at === null) throw notFoundPage(fallback);
      if ('movedTo' in at) {
        await reply
          .status(307)
          .header('Location', at.movedTo)
          .type('text/plain; charset=utf-8')
          .send(`This page is at ${new URL(at.movedTo).origin}`);
        return null;
      }
      const request_ = { acceptLanguage: request.headers['accept-language'], publicUrl: at.site.origin };
      const brand = withIdentity(projectBrand(state, request_), verificationSettingsOf(state), state.identityTypeLabel !== '');
      const site = { state, site: at.site, brand, provider: await deps.providerFor(state), links: { base: accountPath(at.site.mountPath) } };
      sites.set(request, site);
      // spec §4: a closed project's people cannot sign in, nor change anything of theirs.
      if (!state.enabled) throw new PageAnswer(403, refusalPage(brand, 'closed'));
      return site;
    }

    const secure = (site: AccountSite) => site.site.origin.startsWith('https:');
    const cookieOptions = (site: AccountSite) => ({ path: site.links.base, httpOnly: true, sameSite: 'lax' as const, secure: secure(site) });
    const sealContext = (site: AccountSite, what: string) => `account-${what}:${site.state.projectId}`;
    /** A cookie this page sealed for `context`, or null (none, another's, forged). */
    function unseal<T>(sealed: string | undefined, context: string): T | null {
      if (!sealed) return null;
      try {
        return secretBox.openJson<T>(sealed, context);
      } catch {
        return null;
      }
    }

    /** The person signed in on this browser at this issuer, or null (none, ended, blocked). */
    async function signedIn(site: AccountSite, request: AccountRequest, reply: FastifyReply): Promise<SignedIn | null> {
      const session = await site.provider.Session.get({ req: request.raw, res: reply.raw } as never);
      const accountId = session.accountId;
      if (typeof accountId !== 'string') return null;
      const user = await findProjectUser(db, site.state.projectId, accountId);
      if (!user || user.blocked) return null;
      return {
        user,
        sessionRow: refs.id('Session', session.jti),
        signedInAt: typeof session.loginTs === 'number' ? session.loginTs * 1000 : 0,
        csrf: secretBox.hmac('account-form', `${site.state.projectId}\n${session.jti}`),
      };
    }

    /** Signed in, and the form carries this session's token; otherwise the page asks to sign in again. */
    async function formOf(site: AccountSite, request: AccountRequest, reply: FastifyReply): Promise<SignedIn | null> {
      const signed = await signedIn(site, request, reply);
      if (!signed) return null;
      const csrf = request.body?.csrf;
      if (typeof csrf !== 'string' || !safeEqual(csrf, signed.csrf)) {
        throw new PageAnswer(403, errorPage(accountTextsOf(site.brand).staleForm, null, site.brand, { heading: accountTextsOf(site.brand).title }));
      }
      return signed;
    }

    /** To the issuer's authorization endpoint as the page's client; back at /account/callback. */
    function startSignIn(site: AccountSite, reply: FastifyReply, options: { again?: boolean } = {}) {
      const pending: PendingSignIn = { state: randomToken(16), expiresAt: clock.now().getTime() + PENDING_MS };
      reply.setCookie(SIGN_IN_COOKIE, secretBox.sealJson(pending, sealContext(site, 'sign-in')), {
        ...cookieOptions(site),
        maxAge: PENDING_MS / 1000,
      });
      // The code is never exchanged (the page takes it itself), but the issuer may require PKCE of
      // every client: a challenge in a method it allows.
      const verifier = randomToken(32);
      const s256 = site.state.issuer.code_challenge_methods.includes('S256');
      const search = new URLSearchParams({
        client_id: ACCOUNT_CLIENT_ID,
        redirect_uri: `${site.site.issuer}/account/callback`,
        response_type: 'code',
        scope: 'openid',
        state: pending.state,
        code_challenge: s256 ? createHash('sha256').update(verifier).digest('base64url') : verifier,
        code_challenge_method: s256 ? 'S256' : 'plain',
        ui_locales: site.brand.language,
        // OpenID Connect Core §3.1.2.1: a sign-in older than this is made again.
        ...(options.again ? { max_age: String(FRESH_SIGN_IN_MS / 1000) } : {}),
      });
      return reply.redirect(`${site.site.issuer}/auth?${search.toString()}`, 303);
    }

    /** Counts a change of this person's; true when their allowance for the window is used up. */
    const tooManyChanges = async (site: AccountSite, signed: SignedIn) =>
      (await hitAll(
        db,
        site.state.projectId,
        [
          {
            name: 'account-changes',
            bucket: secretBox.hmac('rate-limit', ['account-changes', site.state.projectId, signed.user.id].join('\n')),
            max: CHANGES_PER_WINDOW,
            windowMs: CHANGES_WINDOW_MS,
          },
        ],
        clock.now(),
      )) !== null;
    const tooManyPage = (site: AccountSite, reply: FastifyReply) => {
      const t = accountTextsOf(site.brand);
      return html(reply, 429, errorPage(t.tooManyChanges, null, site.brand, { heading: t.title }));
    };

    const changes = accountChanges(deps);
    const actorOf = (site: AccountSite, signed: SignedIn, request: AccountRequest) => ({
      projectId: site.state.projectId,
      user: signed.user,
      origin: originOf(request),
    });

    const doneAt = (site: AccountSite, done: Done) => `${site.links.base}?done=${done}`;
    const originOf = (request: AccountRequest): RequestOrigin => requestOrigin(request, ACCOUNT_CLIENT_ID);

    /** The user's active passkeys, and the one this browser's session began with. */
    async function passkeysOf(site: AccountSite, signed: SignedIn) {
      const projectId = site.state.projectId;
      const [devices, sessions] = await Promise.all([
        userDevices(db, projectId, signed.user.id),
        sessionsOfUser(db, secretBox, projectId, signed.user.id),
      ]);
      const active = devices.filter((d) => !d.revoked);
      const byRef = new Map(active.map((d) => [refs.device(d.id), d]));
      const thisRef = sessions.find((s) => s.id === signed.sessionRow)?.deviceRef ?? null;
      const current = thisRef === null ? null : (byRef.get(thisRef) ?? null);
      return { active, current, sessions, byRef };
    }

    const asPasskey = (d: Device, current: Device | null): AccountPasskey => ({
      id: d.id,
      name: d.name,
      createdAt: d.createdAt,
      lastUsedAt: d.lastUsedAt,
      country: d.country,
      current: current?.id === d.id,
    });

    async function viewOf(site: AccountSite, signed: SignedIn, extra: Pick<AccountView, 'notice' | 'renaming'> = {}): Promise<AccountView> {
      const { active, current, sessions, byRef } = await passkeysOf(site, signed);
      const names = await deps.applicationNames(site.state.projectId, [...new Set(sessions.flatMap((s) => s.clientIds))]);
      const t = accountTextsOf(site.brand);
      return {
        identity: signed.user.identity,
        csrf: signed.csrf,
        passkeys: active.map((d) => asPasskey(d, current)),
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
        ...extra,
      };
    }

    const page = `/p/:project/account`;
    type Handler = (site: AccountSite, signed: SignedIn, request: AccountRequest, reply: FastifyReply) => Promise<unknown>;
    /**
     * `fresh`: what adds a way into the account or takes one away (a passkey, a QuickCode) needs a
     * sign-in of the last FRESH_SIGN_IN_MS, not only a session: an older one signs in again
     * (max_age) and comes back to the page.
     */
    const guarded = async (request: AccountRequest, reply: FastifyReply, handler: Handler, fresh: boolean, form: boolean) => {
      const site = await siteOf(request, reply);
      if (!site) return reply;
      const signed = form ? await formOf(site, request, reply) : await signedIn(site, request, reply);
      if (!signed) return startSignIn(site, reply);
      if (fresh && signed.signedInAt < Date.now() - FRESH_SIGN_IN_MS) return startSignIn(site, reply, { again: true });
      return handler(site, signed, request, reply);
    };
    /** A page of the signed-in person; a browser not signed in is sent to sign in first. */
    const show = (path: string, handler: Handler, options: { fresh?: boolean } = {}) =>
      pages.get(path, async (request: AccountRequest, reply) => guarded(request, reply, handler, options.fresh ?? false, false));
    /** A change the signed-in person posts, with their session's form token (formOf). */
    const change = (path: string, handler: Handler, options: { fresh?: boolean } = {}) =>
      pages.post(path, async (request: AccountRequest, reply) => guarded(request, reply, handler, options.fresh ?? false, true));

    show(page, async (site, signed, request, reply) => {
      const done = DONE.find((d) => d === request.query.done);
      const view = await viewOf(site, signed, done ? { notice: accountTextsOf(site.brand).done[done] } : {});
      return html(reply, 200, accountPage(site.links, view, site.brand));
    });

    pages.get(`${page}/callback`, async (request: AccountRequest, reply) => {
      const site = await siteOf(request, reply);
      if (!site) return reply;
      const pending = unseal<PendingSignIn>(request.cookies[SIGN_IN_COOKIE], sealContext(site, 'sign-in'));
      reply.clearCookie(SIGN_IN_COOKIE, cookieOptions(site));
      const { code, state, error } = request.query;
      const matches = pending !== null && pending.expiresAt > clock.now().getTime() && typeof state === 'string' && safeEqual(state, pending.state);
      // The page's client never exchanges its code: it is taken here, so it is never left to be used.
      if (matches && typeof code === 'string' && code.length <= 512) {
        const issued = await site.provider.AuthorizationCode.find(code).catch(() => undefined);
        if (issued?.clientId === ACCOUNT_CLIENT_ID) await issued.destroy();
      }
      if (!matches || error !== undefined) return html(reply, 400, accountMessagePage(site.links, 'notSignedIn', site.brand));
      return reply.redirect(site.links.base, 303);
    });

    change(`${page}/passkeys/rename`, async (site, signed, request, reply) => {
      const mpinId = request.body?.passkey ?? '';
      if (await tooManyChanges(site, signed)) return tooManyPage(site, reply);
      const typed = request.body?.name ?? '';
      const name = passkeyNameOf(typed);
      if (name === null) {
        const view = await viewOf(site, signed, {
          renaming: { id: mpinId, value: typed.slice(0, 256), error: accountTextsOf(site.brand).invalidName },
        });
        if (!view.passkeys.some((p) => p.id === mpinId)) throw notFoundPage(site.brand);
        return html(reply, 400, accountPage(site.links, view, site.brand));
      }
      const renamed = await changes.rename(actorOf(site, signed, request), mpinId, name);
      if (!renamed) throw notFoundPage(site.brand);
      return reply.redirect(doneAt(site, 'renamed'), 303);
    });

    const removing = { fresh: true };
    show(
      `${page}/passkeys/remove`,
      async (site, signed, request, reply) => {
        const { active, current } = await passkeysOf(site, signed);
        const device = active.find((d) => d.id === request.query.passkey);
        if (!device) throw notFoundPage(site.brand);
        const passkey = asPasskey(device, current);
        const last = active.length === 1;
        return html(reply, 200, removePasskeyPage(site.links, { csrf: signed.csrf, passkey, last, fallback: fallbackOf(site.brand) }, site.brand));
      },
      removing,
    );

    change(
      `${page}/passkeys/remove`,
      async (site, signed, request, reply) => {
        const removed = await changes.remove(actorOf(site, signed, request), request.body?.passkey ?? '');
        if (!removed) throw notFoundPage(site.brand);
        deps.logoutNoticesQueued();
        return reply.redirect(doneAt(site, 'removed'), 303);
      },
      removing,
    );

    /** The options of a new passkey, its challenge kept for the answer; the page shows them. */
    async function showNewPasskey(site: AccountSite, request: AccountRequest, reply: FastifyReply, signed: SignedIn, error?: string) {
      const { active } = await passkeysOf(site, signed);
      if (active.length >= PASSKEYS_MAX) {
        const t = accountTextsOf(site.brand);
        return html(reply, 409, errorPage(t.tooManyPasskeys(PASSKEYS_MAX), null, site.brand, { heading: t.addPasskey }));
      }
      const { rpID } = relyingPartyOf(site.site.origin);
      const options = await registrationOptions({
        rpName: site.brand.name,
        rpID,
        userName: signed.user.identity,
        userID: isoUint8Array.fromUTF8String(signed.user.id),
        active,
        login: site.state.login,
      });
      const pending: PendingPasskey = { session: signed.sessionRow, challenge: options.challenge, expiresAt: clock.now().getTime() + PENDING_MS };
      reply.setCookie(PASSKEY_COOKIE, secretBox.sealJson(pending, sealContext(site, 'passkey')), {
        ...cookieOptions(site),
        maxAge: PENDING_MS / 1000,
      });
      const body = newPasskeyPage(site.links, { csrf: signed.csrf, optionsJson: JSON.stringify(options), ...(error ? { error } : {}) }, site.brand);
      return html(reply, error ? 400 : 200, body);
    }

    show(`${page}/passkeys/new`, async (site, signed, request, reply) => showNewPasskey(site, request, reply, signed), { fresh: true });

    change(
      `${page}/passkeys/new`,
      async (site, signed, request, reply) => {
        if (await tooManyChanges(site, signed)) return tooManyPage(site, reply);
        const pending = unseal<PendingPasskey>(request.cookies[PASSKEY_COOKIE], sealContext(site, 'passkey'));
        const t = textsOf(site.brand);
        if (!pending || pending.session !== signed.sessionRow || pending.expiresAt <= clock.now().getTime()) {
          return showNewPasskey(site, request, reply, signed, t.passkeyNotCreated);
        }
        const response = parseJson<RegistrationResponseJSON>(request.body?.response);
        const { rpID, origin: expectedOrigin } = relyingPartyOf(site.site.origin);
        const verification = response
          ? await verifyRegistrationResponse({
              response,
              expectedChallenge: pending.challenge,
              expectedOrigin,
              expectedRPID: rpID,
              requireUserVerification: true,
            }).catch(() => null)
          : null;
        if (!verification?.verified) return showNewPasskey(site, request, reply, signed, t.passkeyNotCreated);
        const { credential } = verification.registrationInfo;
        const { current } = await passkeysOf(site, signed);
        // A passkey added here is registered as the one this session began with was (a QuickCode's stays a QuickCode's, docs/decisions/0017).
        // One with no passkey (an emailed code, or a QuickCode and "Not now": the session does not say)
        // is registered as the account page's, which limitRegCodeVerified treats as a QuickCode's.
        const registeredWith = current?.registeredWith ?? ACCOUNT_PAGE_REGISTRATION;
        const stored = await changes.addPasskey(actorOf(site, signed, request), {
          id: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: knownTransports(credential.transports),
          name: deviceNameFromUserAgent(request.headers['user-agent']),
          ip: request.ip,
          country: deps.eventsOf(site.state.projectId).countryOf(request.ip),
          registeredWith,
        });
        if (!stored) return showNewPasskey(site, request, reply, signed, t.passkeyExists);
        reply.clearCookie(PASSKEY_COOKIE, cookieOptions(site));
        return reply.redirect(doneAt(site, 'added'), 303);
      },
      { fresh: true },
    );

    change(
      `${page}/quickcode`,
      async (site, signed, request, reply) => {
        const { projectId, quickCodes } = site.state;
        if (!quickCodes.enabled || signed.user.email === null) throw notFoundPage(site.brand);
        if (await tooManyChanges(site, signed)) return tooManyPage(site, reply);
        const { current } = await passkeysOf(site, signed);
        const events = deps.eventsOf(projectId);
        const minutes = QUICK_CODE_TTL_MS / 60_000;
        // docs/decisions/0017: a QuickCode is issued by a passkey (the one this session began with), not
        // by one itself registered with a QuickCode when the project limits them to verified identities.
        if (!current || !mayIssueQuickCodes(current.registeredWith, quickCodes.verifiedOnly)) {
          await events.refusal(originOf(request), {
            scope: 'reg-code',
            status: 'denied',
            action: 'reg_code.issued',
            userId: signed.user.identity,
            deviceName: current?.name ?? null,
            details: { reason: current ? 'verified_only' : 'no_passkey' },
          });
          return html(reply, 403, accountQuickCodePage(site.links, { code: null, minutes }, site.brand));
        }
        const code = newQuickCode();
        await changes.issueQuickCode(actorOf(site, signed, request), current, code);
        return html(reply, 200, accountQuickCodePage(site.links, { code, minutes }, site.brand));
      },
      { fresh: true },
    );

    change(`${page}/sessions/:session/end`, async (site, signed, request, reply) => {
      const which = request.params.session ?? '';
      const ended = await changes.endSessions(actorOf(site, signed, request), which, signed.sessionRow);
      if (ended === null) throw notFoundPage(site.brand);
      if (ended > 0) deps.logoutNoticesQueued();
      return reply.redirect(doneAt(site, which === 'others' ? 'othersSignedOut' : 'signedOut'), 303);
    });

    pages.post(`${page}/sign-out`, async (request: AccountRequest, reply) => {
      const site = await siteOf(request, reply);
      if (!site) return reply;
      const signed = await formOf(site, request, reply);
      if (signed) {
        const notices = await changes.signOutHere(actorOf(site, signed, request), signed.sessionRow);
        if (notices > 0) deps.logoutNoticesQueued();
      }
      // The provider's session cookie names a session that no longer exists: it goes too.
      reply.clearCookie(ISSUER_SESSION_COOKIE, { path: site.site.mountPath || '/', httpOnly: true, sameSite: 'lax', secure: secure(site) });
      return html(reply, 200, accountMessagePage(site.links, 'signedOut', site.brand));
    });
  });
}

/** What the project's users verify their identity with when they have no passkey (docs/decisions/0018). */
function fallbackOf(brand: PageBrand): FallbackVerification {
  return brand.verifyBy === 'standardEmail' ? 'link' : brand.verifyBy === 'fullCustom' ? 'custom' : 'code';
}
