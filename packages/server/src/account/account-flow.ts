import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomToken, safeEqual } from '../crypto.ts';
import { hitAll } from '../db/rate-limits.repository.ts';
import { ACCOUNT_CLIENT_ID } from '../issuer/account-client.ts';
import { refusalPage } from '../issuer/project-pages.ts';
import { requestOrigin, type RequestOrigin } from '../oidc/pages/site.ts';
import { errorPage } from '../oidc/pages/views.ts';
import { oidcRefs, sessionsOfUser } from '../oidc/payloads.repository.ts';
import type { RelyingParty } from '../oidc/passkeys.ts';
import { userDevices } from '../people/devices.repository.ts';
import { findProjectUser, type ProjectUser } from '../people/end-users.repository.ts';
import { accountChanges, type AccountActor } from './account-changes.ts';
import { accountSiteOf, html, PageAnswer, type AccountPagesDeps, type AccountRequest, type AccountSite } from './account-site.ts';
import { accountTextsOf } from './account-views.ts';
import { accountRecovery, recoveryStopUrl, type AccountRecovery, type RecoveringPerson } from '../people/account-recovery.ts';

/**
 * What every page of the account page shares (passkeys-step.ts, new-passkey-step.ts,
 * quick-code-step.ts, sessions-step.ts, sign-in-step.ts) past the project it reached
 * (account-site.ts): the person signed in on the browser (the issuer's session, read on every
 * request), the form token bound to that session, the fresh sign-in what adds or removes a way in
 * needs, and each person's allowance of changes.
 */

/** The person signed in on this browser, and their session. */
export interface SignedIn {
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

const SIGN_IN_COOKIE = 'lk_account_sign_in';
/** What adds or removes a way into the account needs a sign-in this recent (else it is made again). */
/**
 * The account page's relying party: the project's (docs/decisions/0047), passkeys stored before
 * rpIDs were read as PUBLIC_URL's host, and at a custom domain with an own host that domain's own
 * rpID too (docs/decisions/0049).
 */
export const siteRelyingParty = (flow: AccountFlow, site: AccountSite): RelyingParty => ({
  rpID: site.site.rpID,
  origins: site.site.origins,
  legacyRpID: new URL(flow.deps.publicUrl).hostname,
  localRpID: site.site.localRpID,
});

export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;
/** Changes one person may make on the page per window (each an audit event). */
export const CHANGES_PER_WINDOW = 30;
const CHANGES_WINDOW_MS = 10 * 60 * 1000;
/** How long a sign-in to the page, or a passkey being created on it, may take. */
export const PENDING_MS = 10 * 60 * 1000;
/** The notices a change leaves for the page it returns to (`?done=`). */
export const DONE = ['renamed', 'removed', 'added', 'signedOut', 'othersSignedOut'] as const;
type Done = (typeof DONE)[number];

/** A step's answer to the signed-in person. */
export type Handler = (site: AccountSite, signed: SignedIn, request: AccountRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * `fresh`: what adds a way into the account or takes one away (a passkey, a QuickCode) needs a
 * sign-in of the last FRESH_SIGN_IN_MS, not only a session: an older one signs in again
 * (max_age) and comes back to the page.
 */
export interface HandlerOptions {
  fresh?: boolean;
}

export class AccountFlow {
  /** The site each request was read for (its error page and CSP follow it). */
  readonly sites = new WeakMap<FastifyRequest, AccountSite>();
  readonly refs: ReturnType<typeof oidcRefs>;
  readonly changes: ReturnType<typeof accountChanges>;
  readonly recovery: AccountRecovery;

  readonly deps: AccountPagesDeps;

  /** `log`: where a notice that could not be mailed is reported. */
  constructor(deps: AccountPagesDeps, log: FastifyBaseLogger) {
    this.deps = deps;
    this.refs = oidcRefs(deps.secretBox);
    this.changes = accountChanges(deps);
    this.recovery = accountRecovery({ ...deps, warn: (error, message) => log.warn({ err: error }, message) });
  }

  /** The project whose issuer this request reached (accountSiteOf), remembered for its error page and CSP. */
  async siteOf(request: AccountRequest, reply: FastifyReply): Promise<AccountSite | null> {
    const site = await accountSiteOf(this.deps, request, reply);
    if (!site) return null;
    this.sites.set(request, site);
    // spec §4: a closed project's people cannot sign in, nor change anything of theirs.
    if (!site.state.enabled) throw new PageAnswer(403, refusalPage(site.brand, 'closed'));
    return site;
  }

  secure(site: AccountSite): boolean {
    return site.site.origin.startsWith('https:');
  }

  /** The options of the page's own cookies (scoped to the page). */
  cookieOptions(site: AccountSite) {
    return { path: site.links.base, httpOnly: true, sameSite: 'lax' as const, secure: this.secure(site) };
  }

  /** Sets the page's cookie `name`, `value` sealed for this project and `what`, for PENDING_MS. */
  setSealedCookie(site: AccountSite, reply: FastifyReply, name: string, what: string, value: object): void {
    reply.setCookie(name, this.deps.secretBox.sealJson(value, sealContext(site, what)), {
      ...this.cookieOptions(site),
      maxAge: PENDING_MS / 1000,
    });
  }

  /** A cookie this page sealed for `what`, or null (none, another's, forged). */
  unseal<T>(site: AccountSite, sealed: string | undefined, what: string): T | null {
    if (!sealed) return null;
    try {
      return this.deps.secretBox.openJson<T>(sealed, sealContext(site, what));
    } catch {
      return null;
    }
  }

  /** The person signed in on this browser at this issuer, or null (none, ended, blocked). */
  async signedIn(site: AccountSite, request: AccountRequest, reply: FastifyReply): Promise<SignedIn | null> {
    const session = await site.provider.Session.get({ req: request.raw, res: reply.raw } as never);
    const accountId = session.accountId;
    if (typeof accountId !== 'string') return null;
    const user = await findProjectUser(this.deps.db, site.state.projectId, accountId);
    if (!user || user.blocked) return null;
    return {
      user,
      sessionRow: this.refs.id('Session', session.jti),
      signedInAt: typeof session.loginTs === 'number' ? session.loginTs * 1000 : 0,
      csrf: this.deps.secretBox.hmac('account-form', `${site.state.projectId}\n${session.jti}`),
    };
  }

  /** Signed in, and the form carries this session's token; otherwise the page asks to sign in again. */
  async formOf(site: AccountSite, request: AccountRequest, reply: FastifyReply): Promise<SignedIn | null> {
    const signed = await this.signedIn(site, request, reply);
    if (!signed) return null;
    const csrf = request.body?.csrf;
    if (typeof csrf !== 'string' || !safeEqual(csrf, signed.csrf)) {
      throw new PageAnswer(403, errorPage(accountTextsOf(site.brand).staleForm, null, site.brand, { heading: accountTextsOf(site.brand).title }));
    }
    return signed;
  }

  /** To the issuer's authorization endpoint as the page's client; back at /account/callback. */
  startSignIn(site: AccountSite, reply: FastifyReply, options: { again?: boolean } = {}) {
    const pending: PendingSignIn = { state: randomToken(16), expiresAt: this.deps.clock.now().getTime() + PENDING_MS };
    this.setSealedCookie(site, reply, SIGN_IN_COOKIE, 'sign-in', pending);
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

  /** Whether `state` is that of the sign-in this browser started (its cookie, taken now) and still under way. */
  takeSignIn(site: AccountSite, request: AccountRequest, reply: FastifyReply, state: string | undefined): boolean {
    const pending = this.unseal<PendingSignIn>(site, request.cookies[SIGN_IN_COOKIE], 'sign-in');
    reply.clearCookie(SIGN_IN_COOKIE, this.cookieOptions(site));
    return pending !== null && pending.expiresAt > this.deps.clock.now().getTime() && typeof state === 'string' && safeEqual(state, pending.state);
  }

  /** A page of the signed-in person; a browser not signed in is sent to sign in first. */
  show(pages: FastifyInstance, path: string, handler: Handler, options: HandlerOptions = {}): void {
    pages.get(path, async (request: AccountRequest, reply) => this.#guarded(request, reply, handler, options.fresh ?? false, false));
  }

  /** A change the signed-in person posts, with their session's form token (formOf). */
  change(pages: FastifyInstance, path: string, handler: Handler, options: HandlerOptions = {}): void {
    pages.post(path, async (request: AccountRequest, reply) => this.#guarded(request, reply, handler, options.fresh ?? false, true));
  }

  async #guarded(request: AccountRequest, reply: FastifyReply, handler: Handler, fresh: boolean, form: boolean) {
    const site = await this.siteOf(request, reply);
    if (!site) return reply;
    const signed = form ? await this.formOf(site, request, reply) : await this.signedIn(site, request, reply);
    if (!signed) return this.startSignIn(site, reply);
    if (fresh && signed.signedInAt < Date.now() - FRESH_SIGN_IN_MS) return this.startSignIn(site, reply, { again: true });
    return handler(site, signed, request, reply);
  }

  /** Counts a change of this person's; true when their allowance for the window is used up. */
  async tooManyChanges(site: AccountSite, signed: SignedIn): Promise<boolean> {
    const { db, secretBox, clock } = this.deps;
    const bucket = secretBox.hmac('rate-limit', ['account-changes', site.state.projectId, signed.user.id].join('\n'));
    const limits = [{ name: 'account-changes', bucket, max: CHANGES_PER_WINDOW, windowMs: CHANGES_WINDOW_MS }];
    return (await hitAll(db, site.state.projectId, limits, clock.now())) !== null;
  }

  tooManyPage(site: AccountSite, reply: FastifyReply) {
    const t = accountTextsOf(site.brand);
    return html(reply, 429, errorPage(t.tooManyChanges, null, site.brand, { heading: t.title }));
  }

  originOf(request: AccountRequest): RequestOrigin {
    return requestOrigin(request, ACCOUNT_CLIENT_ID);
  }

  /** Who makes a change, as account-changes.ts records it. */
  actorOf(site: AccountSite, signed: SignedIn, request: AccountRequest): AccountActor {
    return { projectId: site.state.projectId, user: signed.user, origin: this.originOf(request) };
  }

  /** The signed-in person as a recovery names them. */
  personOf(site: AccountSite, signed: SignedIn): RecoveringPerson {
    return { projectId: site.state.projectId, id: signed.user.id, identity: signed.user.identity, email: signed.user.email };
  }

  /** Where "This wasn't me" of an email recovery points (recovery-stop-step.ts). */
  stopUrl(site: AccountSite): string {
    return recoveryStopUrl(site.site.issuer);
  }

  /** The page again, saying what a change did. */
  doneAt(site: AccountSite, done: Done): string {
    return `${site.links.base}?done=${done}`;
  }

  /** The user's active passkeys, and the one this browser's session began with. */
  async passkeysOf(site: AccountSite, signed: SignedIn) {
    const { db, secretBox } = this.deps;
    const projectId = site.state.projectId;
    const [devices, sessions] = await Promise.all([
      userDevices(db, projectId, signed.user.id),
      sessionsOfUser(db, secretBox, projectId, signed.user.id),
    ]);
    const active = devices.filter((d) => !d.revoked);
    const byRef = new Map(active.map((d) => [this.refs.device(d.id), d]));
    const thisRef = sessions.find((s) => s.id === signed.sessionRow)?.deviceRef ?? null;
    const current = thisRef === null ? null : (byRef.get(thisRef) ?? null);
    return { active, current, sessions, byRef };
  }
}

const sealContext = (site: AccountSite, what: string) => `account-${what}:${site.state.projectId}`;
