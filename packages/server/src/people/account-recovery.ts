import type { Clock } from '../clock.ts';
import { randomToken, type SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { EventOrigin, IssuerEvents } from '../events/end-user-event.ts';
import type { AccountNotice, Mailer } from '../mail/mailer.ts';
import type { PageBrand } from '../oidc/pages/views.ts';
import { newRecoveryCode, RECOVERY_CODES_PER_SET, recoveryCodeHash, recoveryTextsOf, recoveryTokenHash, untilText } from '../oidc/recovery-codes.ts';
import { insertDevice, userDevices } from './devices.repository.ts';
import { lockOpenProject } from './open-project.ts';
import {
  emailRecoveryByToken,
  endEmailRecoveries,
  insertEmailRecovery,
  liveReenrollmentLink,
  openEmailRecoveries,
  recoveryCodesOf,
  replaceRecoveryCodes,
  useRecoveryCode,
  useReenrollmentLink,
  type EmailRecovery,
} from './recovery.repository.ts';

/**
 * Account recovery (issue 37 "Recovery", docs/decisions/0051): a person's recovery codes, the notice
 * and delay of a sign-in without a passkey (by email or the project's own verification) of someone
 * who holds passkeys, an administrator's re-enrollment link used, and the notices they mail. Each change in one transaction with the project locked open
 * and its event (an audit event, and a webhook message where one is subscribed). What uses it: the
 * account page's steps (account/recovery-*-step.ts, new-passkey-step.ts, reenroll-step.ts), the
 * sign-in page's "Use a recovery code" and the notice of a sign-in by email or the project's own
 * verification (issuer/project-sign-in.ts).
 */

/**
 * How long an email recovery that waited out its delay still allows a passkey: long enough to come
 * back for it, not so long that an old one the person ignored stays a way in.
 */
export const EMAIL_RECOVERY_USABLE_MS = 7 * 24 * 3600_000;

export interface RecoveryDeps {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  mailer: Mailer;
  eventsOf(projectId: string): IssuerEvents;
  /** Where a notice that could not be mailed is reported (it does not undo what it tells of). */
  warn(error: unknown, message: string): void;
}

/** Who a recovery is of. */
export interface RecoveringPerson {
  projectId: string;
  id: string;
  identity: string;
  email: string | null;
}

/** "This wasn't me": the account page's step that ends an email recovery, at the project's issuer (account/recovery-stop-step.ts). */
export const recoveryStopUrl = (issuer: string): string => `${issuer}/account/recovery/stop`;

/** An administrator's one-time re-enrollment link at the project's issuer (account/reenroll-step.ts). */
export const reenrollmentUrl = (issuer: string, token: string): string => `${issuer}/account/reenroll?t=${encodeURIComponent(token)}`;

/** A passkey created through a re-enrollment link, as it is stored. */
export type ReenrolledPasskey = Omit<Parameters<typeof insertDevice>[1], 'projectId' | 'userId' | 'createdAt'>;

/** Where the email sign-in's notice points and in which words. */
export interface EmailRecoveryContext {
  delayMs: number;
  /** "This wasn't me": the account page's /recovery/stop at the project's issuer. */
  stopUrl: string;
  origin: EventOrigin;
  brand: PageBrand;
}

/** A transaction undone because what it would store was refused (its answer is the reason). */
class Undone extends Error {
  readonly reason: 'gone' | 'exists';
  constructor(reason: 'gone' | 'exists') {
    super(reason);
    this.reason = reason;
  }
}

/** Mails a notice to the person's address, when they have one; a mail that fails is reported, not fatal. */
async function notify(deps: RecoveryDeps, person: RecoveringPerson, notice: AccountNotice): Promise<void> {
  if (!person.email) return;
  await deps.mailer.sendNotice(person.email, notice).catch((error: unknown) => deps.warn(error, 'could not mail an account notice'));
}

/**
 * The notice of a sign-in without a passkey by a person who holds some: what signed them in (an
 * emailed code or link, or the project's own verification), and, with a delay, until when a new
 * passkey waits and "This wasn't me".
 */
function signInNotice(how: 'email' | 'custom', brand: PageBrand, delayed?: { link: string; notBefore: Date }): AccountNotice {
  const t = recoveryTextsOf(brand).mail;
  const [subject, said] = how === 'email' ? [t.emailSignInSubject, t.emailSignInText] : [t.customSignInSubject, t.customSignInText];
  const delay = delayed ? `\n\n${t.delayText(untilText(brand, delayed.notBefore), delayed.link)}` : '';
  return {
    kind: how === 'email' ? 'email_sign_in' : 'custom_sign_in',
    ...(delayed ? { link: delayed.link } : {}),
    language: brand.language,
    subject: subject(brand.name),
    text: `${said(brand.name)}${delay}\n\n${t.notMeIgnore}\n`,
  };
}

export function accountRecovery(deps: RecoveryDeps) {
  return { ...recoveryCodes(deps), ...emailRecoveries(deps), ...reenrollment(deps) };
}

export type AccountRecovery = ReturnType<typeof accountRecovery>;

function recoveryCodes(deps: RecoveryDeps) {
  const { db, clock, secretBox } = deps;
  return {
    codesOf: (projectId: string, userId: string) => recoveryCodesOf(db, projectId, userId),

    /** A new set of codes (the old set goes), with its event; answers the codes, shown once. */
    async createCodes(person: RecoveringPerson, origin: EventOrigin): Promise<string[]> {
      const codes = Array.from({ length: RECOVERY_CODES_PER_SET }, newRecoveryCode);
      await db.transaction(async (tx) => {
        await lockOpenProject(tx, person.projectId);
        const hashes = codes.map((c) => recoveryCodeHash(secretBox, person.projectId, person.id, c));
        await replaceRecoveryCodes(tx, { projectId: person.projectId, userId: person.id, hashes, now: clock.now() });
        await deps.eventsOf(person.projectId).record(tx, origin, {
          scope: 'oidc',
          status: 'success',
          action: 'recovery.codes_created',
          userId: person.identity,
          details: { count: codes.length },
        });
      });
      return codes;
    },

    /**
     * Uses one of the person's codes (once), with its event, and mails them the notice; answers the
     * codes left, or null when the code is not one of theirs left unused.
     */
    async useCode(person: RecoveringPerson, code: string, origin: EventOrigin, brand: PageBrand): Promise<number | null> {
      const left = await db.transaction(async (tx) => {
        await lockOpenProject(tx, person.projectId);
        const codeHash = recoveryCodeHash(secretBox, person.projectId, person.id, code);
        if (!(await useRecoveryCode(tx, { projectId: person.projectId, userId: person.id, codeHash, now: clock.now() }))) return null;
        const { left: remaining } = await recoveryCodesOf(tx, person.projectId, person.id);
        await deps.eventsOf(person.projectId).record(tx, origin, {
          scope: 'oidc',
          status: 'success',
          action: 'recovery.code_used',
          userId: person.identity,
          details: { codesLeft: remaining },
        });
        return remaining;
      });
      if (left === null) return null;
      const t = recoveryTextsOf(brand).mail;
      await notify(deps, person, {
        kind: 'recovery_code_used',
        language: brand.language,
        subject: t.codeUsedSubject(brand.name),
        text: `${t.codeUsedText(brand.name, left)}\n`,
      });
      return left;
    },
  };
}

function emailRecoveries(deps: RecoveryDeps) {
  const { db, clock, secretBox } = deps;

  /**
   * A recovery of the person waiting out the delay from now, stored in `tx`: its id, its "This
   * wasn't me" link (the token is kept as a keyed hash only) and when it ends.
   */
  async function insertRecovery(tx: Db, person: RecoveringPerson, p: EmailRecoveryContext): Promise<{ id: string; link: string; notBefore: Date }> {
    const token = randomToken(32);
    const now = clock.now();
    const notBefore = new Date(now.getTime() + p.delayMs);
    const id = randomToken(16);
    const tokenHash = recoveryTokenHash(secretBox, 'stop', person.projectId, token);
    await insertEmailRecovery(tx, { projectId: person.projectId, id, userId: person.id, tokenHash, createdAt: now, notBefore });
    return { id, link: `${p.stopUrl}?t=${encodeURIComponent(token)}`, notBefore };
  }

  /** An email recovery of the person from now, with its event and its notice ("This wasn't me" in it); answers when it ends. */
  async function start(person: RecoveringPerson, p: EmailRecoveryContext): Promise<Date> {
    const recovery = await db.transaction(async (tx) => {
      await lockOpenProject(tx, person.projectId);
      const started = await insertRecovery(tx, person, p);
      await deps.eventsOf(person.projectId).record(tx, p.origin, {
        scope: 'oidc',
        status: 'success',
        action: 'recovery.email_started',
        userId: person.identity,
        details: { recoveryId: started.id, notBefore: started.notBefore.toISOString() },
      });
      return started;
    });
    await notify(deps, person, signInNotice('email', p.brand, recovery));
    return recovery.notBefore;
  }

  const holdsPasskeys = async (person: RecoveringPerson) => (await userDevices(db, person.projectId, person.id)).some((d) => !d.revoked);

  return {
    /**
     * An emailed code (or link) signed in a person who holds passkeys: they are told. With a delay,
     * an email recovery starts (a new passkey waits until then) and the notice carries "This
     * wasn't me".
     */
    async emailSignIn(person: RecoveringPerson, p: EmailRecoveryContext): Promise<void> {
      if (!(await holdsPasskeys(person))) return;
      if (p.delayMs > 0) {
        await start(person, p);
        return;
      }
      await notify(deps, person, signInNotice('email', p.brand));
    },

    /**
     * The project's own verification (`custom`) signed in a person who holds passkeys: as an emailed
     * code's, with a delay it starts a recovery the new passkey waits for; the notice goes to their
     * address where they have one. The `recovery.custom_sign_in` event is recorded either way (one
     * event, in the recovery's transaction), so a project whose people have no address here can
     * tell them itself through its webhook.
     */
    async customSignIn(person: RecoveringPerson, p: EmailRecoveryContext): Promise<void> {
      if (!(await holdsPasskeys(person))) return;
      const recovery = await db.transaction(async (tx) => {
        await lockOpenProject(tx, person.projectId);
        const started = p.delayMs > 0 ? await insertRecovery(tx, person, p) : undefined;
        await deps.eventsOf(person.projectId).record(tx, p.origin, {
          scope: 'oidc',
          status: 'success',
          action: 'recovery.custom_sign_in',
          userId: person.identity,
          details: {
            notice: person.email ? 'email' : 'none',
            ...(started ? { recoveryId: started.id, notBefore: started.notBefore.toISOString() } : {}),
          },
        });
        return started;
      });
      await notify(deps, person, signInNotice('custom', p.brand, recovery));
    },

    /**
     * May this person add a passkey now, signed in without one while holding passkeys (an email-only
     * sign-in)? With no delay, yes; else an email recovery of theirs, still open, must have waited
     * its delay (and be less than EMAIL_RECOVERY_USABLE_MS past it). None open (all stopped by "This
     * wasn't me", or a sign-in from before the setting): one starts now, and is mailed. Answers
     * whether a recovery allowed it, or when to come back.
     */
    async passkeyAfterEmail(
      person: RecoveringPerson,
      p: EmailRecoveryContext,
    ): Promise<{ allowed: true; recovery: EmailRecovery | null } | { allowed: false; until: Date }> {
      if (p.delayMs <= 0) return { allowed: true, recovery: null };
      const now = clock.now().getTime();
      const open = await openEmailRecoveries(db, person.projectId, person.id, new Date(now - EMAIL_RECOVERY_USABLE_MS));
      const ready = open.find((r) => r.notBefore.getTime() <= now);
      if (ready) return { allowed: true, recovery: ready };
      const waiting = open[0];
      return { allowed: false, until: waiting ? waiting.notBefore : await start(person, p) };
    },

    /** The passkey a recovery waited for was added: the person's open recoveries end (their work is done). */
    endUsed: (projectId: string, recovery: EmailRecovery) =>
      db.transaction((tx) => endEmailRecoveries(tx, { projectId, userId: recovery.userId, how: 'used', now: clock.now() })),

    /** The recovery a "This wasn't me" token names while it is open, or null. */
    async openByToken(projectId: string, token: string): Promise<EmailRecovery | null> {
      const found = await emailRecoveryByToken(db, projectId, recoveryTokenHash(secretBox, 'stop', projectId, token));
      return found && found.endedAt === null ? found : null;
    },

    /**
     * "This wasn't me": ends the recovery, and every other open one of the person (whoever signed in
     * by email is not to add a passkey by any of them), with its event; false when it had ended.
     */
    async stop(projectId: string, recovery: EmailRecovery, identity: string, origin: EventOrigin): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        // The token's recovery was open when read (openByToken): none ending now means another request stopped them first.
        if ((await endEmailRecoveries(tx, { projectId, userId: recovery.userId, how: 'cancelled', now: clock.now() })) === 0) return false;
        await deps.eventsOf(projectId).record(tx, origin, {
          scope: 'oidc',
          status: 'success',
          action: 'recovery.email_cancelled',
          userId: identity,
          details: { recoveryId: recovery.id },
        });
        return true;
      });
    },
  };
}

function reenrollment(deps: RecoveryDeps) {
  const { db, clock, secretBox } = deps;
  return {
    /** The person an administrator's re-enrollment link is for while it is live (unused, unexpired), or null. */
    async liveLink(projectId: string, token: string): Promise<{ userId: string; expiresAt: Date } | null> {
      return liveReenrollmentLink(db, projectId, recoveryTokenHash(secretBox, 'reenroll', projectId, token), clock.now());
    },

    /**
     * The passkey created through a re-enrollment link: stored, the link used (once), with the
     * registration and `recovery.link_used` events, all or nothing. 'gone': the link was used or
     * expired meanwhile; 'exists': that credential is registered already.
     */
    async reenroll(person: RecoveringPerson, token: string, passkey: ReenrolledPasskey, origin: EventOrigin): Promise<'done' | 'gone' | 'exists'> {
      const { projectId } = person;
      try {
        await db.transaction(async (tx) => {
          await lockOpenProject(tx, projectId);
          const now = clock.now();
          const tokenHash = recoveryTokenHash(secretBox, 'reenroll', projectId, token);
          if (!(await useReenrollmentLink(tx, { projectId, tokenHash, now }))) throw new Undone('gone');
          if (!(await insertDevice(tx, { ...passkey, projectId, userId: person.id, createdAt: now }))) throw new Undone('exists');
          const events = deps.eventsOf(projectId);
          await events.record(tx, origin, {
            scope: 'oidc',
            status: 'created',
            action: 'device.register',
            userId: person.identity,
            deviceName: passkey.name,
            usage: 'issued',
            details: { mpinId: passkey.id, verifiedBy: 'reenrollment_link' },
          });
          await events.record(tx, origin, {
            scope: 'oidc',
            status: 'success',
            action: 'recovery.link_used',
            userId: person.identity,
            deviceName: passkey.name,
            details: { mpinId: passkey.id },
          });
        });
        return 'done';
      } catch (error) {
        if (error instanceof Undone) return error.reason;
        throw error;
      }
    },
  };
}
