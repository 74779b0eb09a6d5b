import type { JsonWebKey } from 'node:crypto';
import { isEmail, TEXT_MAX_LENGTH } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { LoginCodes, RequestRefusal } from '../oidc/login-codes.service.ts';
import type { Identity, StepContext, StepOutcome, VerificationSteps } from '../oidc/pages/site.ts';
import { emailPage, errorPage, textsOf, type PageBrand } from '../oidc/pages/views.ts';
import type { LoginCodeMessage, Mailer } from '../mail/mailer.ts';
import type { IssuerSite } from './custom-domains.ts';
import { deviceNameFromUserAgent } from '../oidc/device-name.ts';
import type { EndUserEvent, IssuerEvents } from '../events/end-user-event.ts';
import type { IssuerState } from './issuer-state.repository.ts';
import { userIdForIdentity } from '../people/end-users.repository.ts';
import { signVerificationRequest } from './verification-request.ts';
import {
  confirmVerification,
  findVerificationByToken,
  findVerificationOfInteraction,
  renewVerificationToken,
  replaceVerification,
  useVerification,
  type IdentityType,
  type VerificationMethod,
} from '../people/identity-verifications.repository.ts';
import {
  customPage,
  linkConfirmPage,
  linkUnusablePage,
  linkVerifiedPage,
  linkWaitPage,
  VERIFICATION_SCRIPT_PATH,
  type VerificationLinks,
} from '../oidc/pages/verification-views.ts';

/**
 * A project's identity type and verification method at its issuer (spec §2 User Verification, §3
 * identityType; docs/decisions/0018): page 1 takes an email address or an alphanumeric user id; a
 * new user is verified by an emailed code (codeEmail, login-codes.service.ts), an emailed one-time
 * link (standardEmail) or the project's own backend (fullCustom).
 */

export type MethodSetting = 'codeEmail' | VerificationMethod;

export interface VerificationSettings {
  method: MethodSetting;
  identityType: IdentityType;
  url: string;
  confirmationURL: string;
  customText: string;
}

/** A link or a custom request is good for this long after it was issued (shown again: renewed). */
export const VERIFICATION_TTL_MS = 10 * 60 * 1000;

/** The method's name in events' details (docs/decisions/0014's `email_code`, and the other two). */
export const METHOD_NAMES: Record<MethodSetting, string> = { codeEmail: 'email_code', standardEmail: 'email_link', fullCustom: 'custom' };

/**
 * An alphanumeric user id: 1 to 64 ASCII letters, digits, '.', '_', '-' or '@', compared without
 * case (it is trimmed and lower-cased first). No spaces or other characters, so an id reads the
 * same in every log, event and page.
 */
export const USER_ID_PATTERN = /^[a-z0-9._@-]{1,64}$/;

/** The settings as stored, with spec §4's rule applied as the console applies it (domain normalizeVerification): Email Link forces the email identity. */
export function verificationSettingsOf(state: IssuerState): VerificationSettings {
  const stored = state.verification;
  const method: MethodSetting = stored.method === 'standardEmail' || stored.method === 'fullCustom' ? stored.method : 'codeEmail';
  const identityType: IdentityType = method !== 'standardEmail' && stored.identityType === 'alphanumeric' ? 'alphanumeric' : 'email';
  return { method, identityType, url: stored.url, confirmationURL: stored.confirmationURL, customText: stored.customText };
}

/** Page 1's field as an identity of `type`, or null. */
export function identityOf(type: IdentityType, typed: string): Identity | null {
  const value = typed.trim().toLowerCase();
  if (type === 'alphanumeric') return USER_ID_PATTERN.test(value) ? { type, value } : null;
  return value && value.length <= TEXT_MAX_LENGTH && isEmail(value) ? { type, value } : null;
}

/** The pages' brand with page 1's field for the identity type and its hint for the method. */
export function withIdentity(brand: PageBrand, settings: VerificationSettings, labelSet: boolean): PageBrand {
  const t = textsOf(brand);
  const idHint = settings.method === 'standardEmail' ? t.linkHint : settings.method === 'fullCustom' ? t.customHint : undefined;
  const alphanumeric = settings.identityType === 'alphanumeric';
  return {
    ...brand,
    idType: settings.identityType,
    ...(alphanumeric && !labelSet ? { idLabel: t.userIdLabel } : {}),
    ...(idHint ? { idHint } : {}),
    ...(settings.method === 'standardEmail' || settings.method === 'fullCustom' ? { verifyBy: settings.method } : {}),
  };
}

/** The keyed hashes a verification is stored and found by (a token or request id alone names nothing in another project). */
export function verificationRefs(secretBox: SecretBox, projectId: string) {
  return {
    token: (token: string) => secretBox.hmac('identity-verification', `${projectId}\n${token}`),
    interaction: (uid: string) => secretBox.hmac('identity-verification-interaction', `${projectId}\n${uid}`),
  };
}

/** A verification event (docs/decisions/0014, scope `oidc`): `verification.sent`, `.confirmed`, `.failed`. */
export function verificationEvent(
  status: EndUserEvent['status'],
  action: 'verification.sent' | 'verification.confirmed' | 'verification.failed',
  identity: string | null,
  method: string,
  details: Record<string, unknown> = {},
): EndUserEvent {
  return { scope: 'oidc', status, action, userId: identity, details: { method, ...details } };
}

/** An address with `name=value` added to its query, or null when it is no URL. */
export function withParameter(address: string, name: string, value: string): string | null {
  try {
    const url = new URL(address);
    url.searchParams.set(name, value);
    return url.href;
  } catch {
    return null;
  }
}

function tooMany(brand: PageBrand, limit: RequestRefusal): string {
  const texts = textsOf(brand).tooManyCodes;
  return limit === 'interaction' ? texts.interaction(textsOf(brand).startAgainAtApp) : texts[limit];
}

/** One project's verification steps for the sign-in pages (idp/sign-in-pages.ts VerificationSteps). */
export function projectVerification(deps: {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  mailer: Mailer;
  loginCodes: LoginCodes;
  events: IssuerEvents;
  projectId: string;
  settings: VerificationSettings;
  site: IssuerSite;
  brand: PageBrand;
  /** The project's signing keys, the current algorithm's first (project-keys.ts). */
  signingKeys: () => Promise<JsonWebKey[]>;
}): VerificationSteps {
  const { db, clock, mailer, loginCodes, events, projectId, settings, site, brand } = deps;
  const refs = verificationRefs(deps.secretBox, projectId);
  const t = textsOf(brand);

  const linksOf = (ctx: StepContext): VerificationLinks => ({
    ...ctx.links,
    verify: `${ctx.links.emailPage}/verify`,
    status: `${ctx.links.emailPage}/verify/status`,
    verified: `${ctx.links.emailPage}/verified`,
    script: `${site.mountPath}${VERIFICATION_SCRIPT_PATH}`,
  });
  const startOver = (ctx: StepContext): StepOutcome => ({ redirect: ctx.links.emailPage });
  const query = (ctx: StepContext) => ctx.request.query as Record<string, string | undefined>;

  const linkMail = (link: string): LoginCodeMessage => ({
    language: brand.language,
    subject: t.linkMailSubject(brand.name),
    text: t.linkMailText(brand.name, link, VERIFICATION_TTL_MS / 60_000),
  });

  /** The custom page: a fresh signed request (the one shown before stops working) in the project's verification address. */
  async function showCustomPage(ctx: StepContext, identity: { value: string; type: IdentityType }, error?: string): Promise<StepOutcome> {
    if (!settings.url) return { status: 503, page: errorPage(t.serverError(t.startAgainAtApp), null, brand) };
    const now = clock.now();
    const jti = randomToken(32);
    const expiresAt = new Date(now.getTime() + VERIFICATION_TTL_MS);
    const renewed = await renewVerificationToken(db, { projectId, interactionRef: refs.interaction(ctx.uid), tokenRef: refs.token(jti), expiresAt });
    if (!renewed) return startOver(ctx);
    const [key] = await deps.signingKeys();
    if (!key) throw new Error('the project has no signing key');
    const request = signVerificationRequest(key, {
      iss: site.issuer,
      aud: ctx.origin.clientId ?? '',
      iat: Math.floor(now.getTime() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
      jti,
      user_id: identity.value,
      identity_type: identity.type,
      continue_to: `${site.origin}${linksOf(ctx).verified}`,
    });
    const href = withParameter(settings.url, 'request', request);
    if (href === null) return { status: 503, page: errorPage(t.serverError(t.startAgainAtApp), null, brand) };
    return { status: error ? 400 : 200, page: customPage(ctx.links, { href, customText: settings.customText, ...(error ? { error } : {}) }, brand) };
  }

  return {
    identityOf: (typed) => identityOf(settings.identityType, typed),
    invalidIdentity: settings.identityType === 'alphanumeric' ? t.invalidUserId : t.invalidEmail,

    async start(ctx, identity, options) {
      const method = settings.method;
      if (method === 'codeEmail') {
        if (identity.type === 'email') return null;
        // docs/decisions/0018: a code is mailed, and a user id is no address: such a project cannot verify new users.
        await events.refusal(
          ctx.origin,
          verificationEvent('error', 'verification.failed', identity.value, METHOD_NAMES.codeEmail, { reason: 'identity_not_email' }),
        );
        return { status: 403, page: errorPage(t.cannotVerify(brand.name), null, brand) };
      }
      const interactionRef = refs.interaction(ctx.uid);
      const earlier = await findVerificationOfInteraction(db, projectId, interactionRef);
      // The limits of emailed codes, shared with them (a custom request counts as one too: each writes a row and an event).
      const refused = await loginCodes.countSend(identity.value, ctx.uid, ctx.request.ip, earlier?.identity ?? null);
      if (refused) return { status: 429, page: emailPage(ctx.links, { email: identity.value, error: tooMany(brand, refused) }, brand) };

      const token = randomToken(32);
      const now = clock.now();
      await db.transaction(async (tx) => {
        await replaceVerification(tx, {
          tokenRef: refs.token(token),
          projectId,
          interactionRef,
          method,
          identityType: identity.type,
          identity: identity.value,
          requestedFrom: deviceNameFromUserAgent(ctx.request.headers['user-agent']),
          createdAt: now,
          expiresAt: new Date(now.getTime() + VERIFICATION_TTL_MS),
        });
        await events.record(tx, ctx.origin, verificationEvent('success', 'verification.sent', identity.value, METHOD_NAMES[method]));
      });
      if (method === 'standardEmail') {
        const link = `${site.origin}${ctx.links.emailPage}/link?token=${token}`;
        try {
          await mailer.sendLoginLink(identity.value, link, linkMail(link));
        } catch (error) {
          ctx.request.log.error({ err: error }, 'could not send a sign-in link');
          await events.refusal(
            ctx.origin,
            verificationEvent('error', 'verification.failed', identity.value, METHOD_NAMES[method], { reason: 'mail_failed' }),
          );
          return { status: 503, page: emailPage(ctx.links, { email: identity.value, error: t.linkMailFailed }, brand) };
        }
      }
      return { redirect: `${linksOf(ctx).verify}${options.resend ? '?resent=1' : ''}` };
    },

    async waitPage(ctx) {
      const row = await findVerificationOfInteraction(db, projectId, refs.interaction(ctx.uid));
      if (!row || row.usedAt || row.expiresAt.getTime() <= clock.now().getTime()) return startOver(ctx);
      if (row.confirmedAt) return { redirect: linksOf(ctx).verified };
      const pending = query(ctx).pending !== undefined;
      if (row.method === 'fullCustom') {
        return showCustomPage(ctx, { value: row.identity, type: row.identityType }, pending ? t.customNotConfirmed : undefined);
      }
      const page = linkWaitPage(
        linksOf(ctx),
        { email: row.identity, ...(query(ctx).resent ? { notice: t.newLinkSent } : {}), ...(pending ? { error: t.linkNotOpened } : {}) },
        brand,
      );
      return { status: 200, page };
    },

    async status(ctx) {
      const row = await findVerificationOfInteraction(db, projectId, refs.interaction(ctx.uid));
      return { status: 200, json: { confirmed: row !== null && row.confirmedAt !== null && row.usedAt === null } };
    },

    async resume(ctx) {
      const interactionRef = refs.interaction(ctx.uid);
      const now = clock.now();
      // Used once, and the user it names found or created, in one transaction.
      const verified = await db.transaction(async (tx) => {
        const used = await useVerification(tx, { projectId, interactionRef, now });
        if (!used) return null;
        const accountId = await userIdForIdentity(tx, { projectId, identity: { type: used.identityType, value: used.identity }, now });
        return { accountId, identity: used.identity, method: METHOD_NAMES[used.method] };
      });
      if (verified) return { verified };
      const row = await findVerificationOfInteraction(db, projectId, interactionRef);
      if (row && !row.confirmedAt && row.expiresAt.getTime() > now.getTime()) return { redirect: `${linksOf(ctx).verify}?pending=1` };
      return startOver(ctx);
    },

    async openLink(ctx, token, options) {
      const row = token ? await findVerificationByToken(db, projectId, refs.token(token)) : null;
      const now = clock.now();
      const fail = async (reason: string): Promise<StepOutcome> => {
        await events.refusal(
          ctx.origin,
          verificationEvent('failed', 'verification.failed', row?.identity ?? null, METHOD_NAMES.standardEmail, { reason }),
        );
        return { status: 400, page: linkUnusablePage(brand) };
      };
      // Only a link of this interaction (its address names it), of an emailed link, once, in time.
      if (!row || row.method !== 'standardEmail' || row.interactionRef !== refs.interaction(ctx.uid)) return fail('unknown_link');
      if (row.usedAt) return fail('used');
      if (row.expiresAt.getTime() <= now.getTime()) return fail('expired');
      if (!row.confirmedAt) {
        // In another browser, a click confirms it (a mail scanner fetching links confirms nothing).
        if (!options.sameBrowser && !options.confirm) {
          const device = row.requestedFrom ?? deviceNameFromUserAgent(undefined);
          return { status: 200, page: linkConfirmPage(`${ctx.links.emailPage}/link`, token, { email: row.identity, device }, brand) };
        }
        const confirmed = await db.transaction(async (tx) => {
          if (!(await confirmVerification(tx, { projectId, tokenRef: row.tokenRef, by: 'link', now }))) return false;
          const where = options.sameBrowser ? 'same_browser' : 'other_browser';
          await events.record(
            tx,
            ctx.origin,
            verificationEvent('success', 'verification.confirmed', row.identity, METHOD_NAMES.standardEmail, { where }),
          );
          return true;
        });
        if (!confirmed) return fail('used');
      }
      return options.sameBrowser ? { redirect: linksOf(ctx).verified } : { status: 200, page: linkVerifiedPage(brand) };
    },
  };
}
