import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { endSessionOfUser, endSessionsOfDevice, endSessionsOfUser, sessionsOfUser, type EndedSession } from '../oidc/payloads.repository.ts';
import { queueBackchannelLogouts, type LogoutCause } from './backchannel-logouts.ts';
import { revokeDevice, type Device } from './devices.repository.ts';
import { deleteCodesIssuedBy, deleteRegistrationCodesOf } from './registration-codes.repository.ts';

// The one revocation cascade (issue 35): what ending a way into a person's account ends with it.
// An administrator's revocation, the person removing a passkey on their account page, signing out,
// blocking and erasing all go through here, inside the caller's transaction, so each ends the same
// things: provider sessions with their grants, codes and tokens; their applications' back-channel
// logout notices (queued, sent after commit); QuickCodes that would let the way back in.

/** What a cascade ended, as its audit event reports it. */
export interface Ended {
  sessionsEnded: number;
  logoutNotices: number;
}

/** Which of a person's sessions to end: every one, one (a session row id), or every one but this browser's. */
export type SessionsToEnd = { all: true } | { only: string } | { allBut: string };

interface PersonInProject {
  projectId: string;
  userId: string;
  now: Date;
}

async function notify(tx: Db, projectId: string, ended: EndedSession[], cause: LogoutCause, now: Date): Promise<Ended> {
  return { sessionsEnded: ended.length, logoutNotices: await queueBackchannelLogouts(tx, projectId, ended, cause, now) };
}

/**
 * spec §4 "Device: Active -> Revoked (one way)": the passkey marked revoked with `reason`, the
 * sessions it began ended and their applications told, the QuickCodes it issued deleted
 * (docs/decisions/0017). Null when it is no active passkey of the project (of `ownerId`, when given).
 */
export async function revokePasskey(
  tx: Db,
  box: SecretBox,
  p: { projectId: string; mpinId: string; reason: string; now: Date; ownerId?: string },
): Promise<(Ended & { device: Device }) | null> {
  const device = await revokeDevice(tx, {
    projectId: p.projectId,
    id: p.mpinId,
    reason: p.reason,
    now: p.now,
    ...(p.ownerId ? { userId: p.ownerId } : {}),
  });
  if (!device) return null;
  const ended = await notify(tx, p.projectId, await endSessionsOfDevice(tx, box, p.projectId, p.mpinId), 'device_revoked', p.now);
  await deleteCodesIssuedBy(tx, p.projectId, p.mpinId);
  return { device, ...ended };
}

/** Ends the person's sessions `which` says, their applications told with `cause`. */
export async function endSessions(tx: Db, box: SecretBox, p: PersonInProject & { which: SessionsToEnd; cause: LogoutCause }): Promise<Ended> {
  const { projectId, userId, which } = p;
  let ended: EndedSession[];
  if ('all' in which) ended = await endSessionsOfUser(tx, box, projectId, userId);
  else if ('only' in which) ended = await endSessionOfUser(tx, box, projectId, userId, which.only);
  else {
    ended = [];
    for (const s of await sessionsOfUser(tx, box, projectId, userId)) {
      if (s.id !== which.allBut) ended.push(...(await endSessionOfUser(tx, box, projectId, userId, s.id)));
    }
  }
  return notify(tx, projectId, ended, p.cause, p.now);
}

/**
 * A person cut off (blocked, or about to be erased): every session ended, their applications told
 * with `cause`, and their QuickCodes deleted, so nothing already issued lets them back in.
 */
export async function cutOff(tx: Db, box: SecretBox, p: PersonInProject & { cause: 'user_blocked' | 'user_deleted' }): Promise<Ended> {
  const ended = await endSessions(tx, box, { ...p, which: { all: true } });
  await deleteRegistrationCodesOf(tx, p.projectId, p.userId);
  return ended;
}
