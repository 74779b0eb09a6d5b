import { DomainError, type EndUser, type SessionsEnded } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { findEndUser, setBlocked } from '../../people/end-users.repository.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import { cutOff, endSessions } from '../../people/revocation.ts';
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

/** Inside a write's transaction: the project locked open, the user's row locked; 404 / 409 otherwise. */
export async function lockUser(tx: Db, projectId: string, userId: string): Promise<EndUser> {
  await lockOpenProject(tx, projectId);
  const user = await findEndUser(tx, projectId, userId, { forUpdate: true });
  if (!user) throw notFound('No such user in this project');
  return user;
}

const subjectOf = (user: EndUser) => ({ userId: user.identity, deviceName: null });

/** An administrator's changes to an end user: blocked, unblocked, their sessions ended. */
export function createEndUserChanges({ db, clock, audit, secretBox, logoutNoticesQueued = () => undefined }: EndUsersServiceDeps) {
  return {
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
  };
}
