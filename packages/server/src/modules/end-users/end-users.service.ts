import {
  DomainError,
  type EndUser,
  type EndUserData,
  type EndUserDetail,
  type EndUserErased,
  type EndUserSession,
  type SessionsEnded,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { eventsOfUser, pseudonymiseEventsOf } from '../../events/audit-events.repository.ts';
import { deleteLoginCodesOf } from '../../oidc/login-codes.repository.ts';
import { oidcRefs, sessionsOfUser } from '../../oidc/payloads.repository.ts';
import { devicesOfUser, userDevices } from '../../people/devices.repository.ts';
import { deleteEndUser, findEndUser, setBlocked } from '../../people/end-users.repository.ts';
import { deleteVerificationsOf } from '../../people/identity-verifications.repository.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import { cutOff, endSessions } from '../../people/revocation.ts';
import { deleteMessagesOf } from '../webhooks/webhooks.repository.ts';
import { applicationNamesOf } from '../apps/apps.repository.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';

export interface EndUsersServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  /** Sends the back-channel logout notices queued by a change now (they are sent at the next poll otherwise). */
  logoutNoticesQueued?: () => void;
}

/**
 * A project's end users (issue 24, docs/decisions/0038): their page, their data, and the changes an
 * administrator makes — each in one transaction with its audit event, with the project locked open
 * (a closed project is read-only, spec §4) and the user's row locked.
 */
export function createEndUsersService({ db, clock, audit, secretBox, logoutNoticesQueued = () => undefined }: EndUsersServiceDeps) {
  const refs = oidcRefs(secretBox);
  /** The stable name an erased user's events keep: the same for all of them, and nothing of the person. */
  const pseudonymOf = (projectId: string, userId: string) =>
    `deleted-${secretBox.hmac('end-user-pseudonym', `${projectId}\n${userId}`).slice(0, 16)}`;

  async function sessionsAnswer(from: Db, projectId: string, userId: string, devices: EndUserDetail['devices']): Promise<EndUserSession[]> {
    const byRef = new Map(devices.map((d) => [refs.device(d.mpinId), d]));
    const sessions = await sessionsOfUser(from, secretBox, projectId, userId);
    const names = await applicationNamesOf(from, projectId, [...new Set(sessions.flatMap((s) => s.clientIds))]);
    return sessions.map((s) => {
      const device = s.deviceRef ? byRef.get(s.deviceRef) : undefined;
      return {
        id: s.id,
        startedAt: s.startedAt && iso(s.startedAt),
        expiresAt: s.expiresAt && iso(s.expiresAt),
        deviceName: device?.deviceName ?? null,
        mpinId: device?.mpinId ?? null,
        applications: s.clientIds.map((clientId) => ({ clientId, name: names.get(clientId) ?? null })),
      };
    });
  }

  /** Inside a write's transaction: the project locked open, the user's row locked; 404 / 409 otherwise. */
  async function lockUser(tx: Db, projectId: string, userId: string): Promise<EndUser> {
    await lockOpenProject(tx, projectId);
    const user = await findEndUser(tx, projectId, userId, { forUpdate: true });
    if (!user) throw notFound('No such user in this project');
    return user;
  }

  /**
   * Erasure (issue 24, GDPR art. 17; docs/decisions/0038), once the person is cut off: the codes and
   * verification links mailed to their identity and the webhook messages that name them go, their
   * audit events name them by `pseudonym` only, then the person goes, and their passkeys with them
   * (foreign keys). Usage counts are not touched. Each table's owner does its part; answers how many
   * events were pseudonymised.
   */
  async function eraseTraces(tx: Db, e: { projectId: string; id: string; identity: string; pseudonym: string }): Promise<number> {
    await deleteLoginCodesOf(tx, e.projectId, e.identity);
    await deleteVerificationsOf(tx, e.projectId, e.identity);
    await deleteMessagesOf(tx, e.projectId, e.identity);
    const credentials = (await userDevices(tx, e.projectId, e.id)).map((d) => d.id);
    const events = await pseudonymiseEventsOf(tx, { ...e, credentials });
    await deleteEndUser(tx, e.projectId, e.id);
    return events;
  }

  const subjectOf = (user: EndUser) => ({ userId: user.identity, deviceName: null });

  return {
    async get(projectId: string, userId: string): Promise<EndUserDetail> {
      const user = await findEndUser(db, projectId, userId);
      if (!user) throw notFound('No such user in this project');
      const devices = await devicesOfUser(db, projectId, userId);
      return { ...user, devices, sessions: await sessionsAnswer(db, projectId, userId, devices) };
    },

    /** Art. 15/20: everything held about the user, as one document. */
    async exportData(projectId: string, userId: string): Promise<EndUserData> {
      const user = await findEndUser(db, projectId, userId);
      if (!user) throw notFound('No such user in this project');
      const devices = await devicesOfUser(db, projectId, userId);
      return {
        exportedAt: iso(clock.now()),
        projectId,
        user,
        devices,
        sessions: await sessionsAnswer(db, projectId, userId, devices),
        events: await eventsOfUser(db, projectId, user.identity),
      };
    },

    /** Blocked: every session, grant and token of theirs ends now; each sign-in is refused (denied) until unblocked. */
    async block(actor: Actor, projectId: string, userId: string): Promise<EndUser> {
      const answer = await db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        if (user.status === 'blocked') throw new DomainError('conflict', 'This user is already blocked');
        const blocked = await setBlocked(tx, projectId, userId, clock.now());
        const ended = await cutOff(tx, secretBox, { projectId, userId, cause: 'user_blocked', now: clock.now() });
        await audit(tx, {
          actor,
          action: 'user.block',
          result: 'success',
          projectId,
          changes: changesBetween({ status: user.status }, { status: blocked.status }),
          details: { userRef: userId, ...ended },
          subject: subjectOf(user),
        });
        return blocked;
      });
      logoutNoticesQueued();
      return answer;
    },

    async unblock(actor: Actor, projectId: string, userId: string): Promise<EndUser> {
      return db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        if (user.status === 'active') throw new DomainError('conflict', 'This user is not blocked');
        const active = await setBlocked(tx, projectId, userId, null);
        await audit(tx, {
          actor,
          action: 'user.unblock',
          result: 'success',
          projectId,
          changes: changesBetween({ status: user.status }, { status: active.status }),
          details: { userRef: userId },
          subject: subjectOf(user),
        });
        return active;
      });
    },

    /** Ends the session `sessionId` of the user, or every one of theirs (with their grants and tokens). */
    async endSessions(actor: Actor, projectId: string, userId: string, sessionId?: string): Promise<SessionsEnded> {
      const answer = await db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        const which = sessionId === undefined ? { all: true as const } : { only: sessionId };
        const ended = await endSessions(tx, secretBox, { projectId, userId, which, cause: 'user_signed_out', now: clock.now() });
        if (sessionId !== undefined && ended.sessionsEnded === 0) throw notFound('No such session of this user');
        await audit(tx, {
          actor,
          action: sessionId === undefined ? 'user.sessions_end' : 'user.session_end',
          result: 'success',
          projectId,
          details: { userRef: userId, ...ended },
          subject: subjectOf(user),
        });
        return { ended: ended.sessionsEnded };
      });
      if (answer.ended > 0) logoutNoticesQueued();
      return answer;
    },

    /** Erasure (GDPR art. 17): see eraseEndUser; the event of it names the pseudonym, not the person. */
    async erase(actor: Actor, projectId: string, userId: string): Promise<EndUserErased> {
      const pseudonym = pseudonymOf(projectId, userId);
      const answer = await db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        const ended = await cutOff(tx, secretBox, { projectId, userId, cause: 'user_deleted', now: clock.now() });
        const events = await eraseTraces(tx, { projectId, id: userId, identity: user.identity, pseudonym });
        await audit(tx, {
          actor,
          action: 'user.delete',
          result: 'success',
          projectId,
          details: { eventsPseudonymised: events, ...ended },
          subject: { userId: pseudonym, deviceName: null },
        });
        return { id: userId, deleted: true as const, pseudonym };
      });
      logoutNoticesQueued();
      return answer;
    },
  };
}

export type EndUsersService = ReturnType<typeof createEndUsersService>;
