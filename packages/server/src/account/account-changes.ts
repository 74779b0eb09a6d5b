import type { Clock } from '../clock.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { lockOpenProject } from '../people/open-project.ts';
import type { EventOrigin, IssuerEvents } from '../events/end-user-event.ts';
import { QUICK_CODE_TTL_MS, quickCodeHashOf } from '../oidc/passkeys.ts';
import { insertDevice, renameDevice, type Device } from '../people/devices.repository.ts';
import type { ProjectUser } from '../people/end-users.repository.ts';
import { replaceRegistrationCode } from '../people/registration-codes.repository.ts';
import { endSessions, revokePasskey, type Ended, type SessionsToEnd } from '../people/revocation.ts';

/** The revocation reason of a passkey its owner removed on the account page (an administrator's is PORTAL_REVOKE). */
export const REMOVED_BY_USER = 'USER_REMOVED';

/** Who makes a change on their account page, and from where. */
export interface AccountActor {
  projectId: string;
  user: ProjectUser;
  origin: EventOrigin;
}

/** A passkey the browser created and the page verified, as it is stored. */
export type NewPasskey = Pick<
  Device,
  'id' | 'publicKey' | 'counter' | 'transports' | 'name' | 'ip' | 'country' | 'registeredWith' | 'rpId' | 'backupEligible' | 'backedUp'
>;

/** What the changes need: the database, the time, the sealing keys and each project's event recorder. */
type ChangesDeps = { db: Db; clock: Clock; secretBox: SecretBox; eventsOf(projectId: string): IssuerEvents };

/**
 * The changes an end user makes on their own account page (account-pages.ts, docs/decisions/0040):
 * each in one transaction with the project locked open (a closed project changes nothing, spec §4)
 * and its audit event; what the page shows and asks is the routes' part.
 */
export function accountChanges(deps: ChangesDeps) {
  return { ...passkeyChanges(deps), ...sessionChanges(deps) };
}

/** The changes to their passkeys and QuickCode. */
function passkeyChanges(deps: ChangesDeps) {
  const { db, clock, secretBox } = deps;

  return {
    /** Renames an active passkey of theirs; null when there is none of that id. */
    async rename(a: AccountActor, mpinId: string, name: string): Promise<Device | null> {
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, a.projectId);
        const device = await renameDevice(tx, { projectId: a.projectId, id: mpinId, userId: a.user.id, name });
        if (!device) return null;
        await deps.eventsOf(a.projectId).record(tx, a.origin, {
          scope: 'oidc',
          status: 'success',
          action: 'device.rename',
          userId: a.user.identity,
          deviceName: device.name,
          details: { mpinId },
        });
        return device;
      });
    },

    /**
     * Removes an active passkey of theirs as an administrator's revocation does (spec §4): the
     * sessions it began end with their tokens, their applications' logout notices are queued, the
     * QuickCodes it issued go. Null when there is none of that id.
     */
    async remove(a: AccountActor, mpinId: string): Promise<Device | null> {
      const { projectId } = a;
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        const now = clock.now();
        const removed = await revokePasskey(tx, secretBox, { projectId, mpinId, reason: REMOVED_BY_USER, now, ownerId: a.user.id });
        if (!removed) return null;
        const { device: revoked, sessionsEnded, logoutNotices } = removed;
        await deps.eventsOf(projectId).record(tx, a.origin, {
          scope: 'oidc',
          status: 'success',
          action: 'device.revoke',
          userId: a.user.identity,
          deviceName: revoked.name,
          details: { mpinId, reason: REMOVED_BY_USER, sessionsEnded, logoutNotices },
        });
        return revoked;
      });
    },

    /** Stores the passkey created on the page, with its registration event (counted as `issued`); false when it exists already. */
    async addPasskey(a: AccountActor, passkey: NewPasskey): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, a.projectId);
        const inserted = await insertDevice(tx, { ...passkey, projectId: a.projectId, userId: a.user.id, createdAt: clock.now() });
        if (!inserted) return false;
        await deps.eventsOf(a.projectId).record(tx, a.origin, {
          scope: 'oidc',
          status: 'created',
          action: 'device.register',
          userId: a.user.identity,
          deviceName: passkey.name,
          usage: 'issued',
          details: { mpinId: passkey.id, verifiedBy: 'account_page' },
        });
        return true;
      });
    },

    /** Replaces their QuickCode with `code`, issued by `issuer` (docs/decisions/0017), counted as `reg-code` usage. */
    async issueQuickCode(a: AccountActor, issuer: Device, code: string): Promise<void> {
      await db.transaction(async (tx) => {
        await lockOpenProject(tx, a.projectId);
        const now = clock.now();
        await replaceRegistrationCode(tx, {
          projectId: a.projectId,
          userId: a.user.id,
          codeHash: quickCodeHashOf(secretBox, a.projectId, a.user.id, code),
          issuedBy: issuer.id,
          createdAt: now,
          expiresAt: new Date(now.getTime() + QUICK_CODE_TTL_MS),
        });
        await deps.eventsOf(a.projectId).record(tx, a.origin, {
          scope: 'reg-code',
          status: 'success',
          action: 'reg_code.issued',
          userId: a.user.identity,
          deviceName: issuer.name,
          usage: 'reg-code',
          details: { mpinId: issuer.id, from: 'account_page' },
        });
      });
    },
  };
}

/** The changes to their sessions. */
function sessionChanges(deps: ChangesDeps) {
  const { db, clock, secretBox } = deps;

  /** Ends the sessions `which` says, their applications told, with the sign-out event; null when none ended. */
  async function signedOut(tx: Db, a: AccountActor, which: SessionsToEnd, told: 'this' | 'one' | 'others'): Promise<number | null> {
    const ended: Ended = await endSessions(tx, secretBox, {
      projectId: a.projectId,
      userId: a.user.id,
      which,
      cause: 'user_signed_out',
      now: clock.now(),
    });
    if (ended.sessionsEnded === 0 && told === 'one') return null;
    await deps.eventsOf(a.projectId).record(tx, a.origin, {
      scope: 'oidc',
      status: 'success',
      action: 'sign_out',
      userId: a.user.identity,
      details: { sessions: told, ...ended },
    });
    return ended.logoutNotices;
  }

  return {
    /**
     * Ends one other session of theirs (`which`, a row id) or every other (`others`), `current`
     * being this browser's; answers the logout notices queued, or null when there is no such other session.
     */
    async endSessions(a: AccountActor, which: string, current: string): Promise<number | null> {
      const { projectId } = a;
      return db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        if (which === 'others') return signedOut(tx, a, { allBut: current }, 'others');
        // This browser's own session ends with "Sign out here".
        if (which === current) return null;
        return signedOut(tx, a, { only: which }, 'one');
      });
    },

    /** Ends this browser's session (`current`); answers the logout notices queued. */
    async signOutHere(a: AccountActor, current: string): Promise<number> {
      return db.transaction(async (tx) => (await signedOut(tx, a, { only: current }, 'this')) ?? 0);
    },
  };
}
