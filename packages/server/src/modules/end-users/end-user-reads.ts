import type { EndUserData, EndUserDetail, EndUserRecovery, EndUserSession } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import { notFound } from '../../errors.ts';
import { eventsOfUser } from '../../events/audit-events.repository.ts';
import { identityPseudonym } from '../../events/end-user-event.ts';
import { oidcRefs, sessionsOfUser } from '../../oidc/payloads.repository.ts';
import { devicesOfUser } from '../../people/devices.repository.ts';
import { findEndUser, profileOf } from '../../people/end-users.repository.ts';
import { applicationNamesOf } from '../apps/apps.repository.ts';

/** An end user as read: their page, and everything held about them (issue 24). */
export function createEndUserReads({
  db,
  clock,
  secretBox,
  recoveryOf,
}: {
  db: Db;
  clock: Clock;
  secretBox: SecretBox;
  /** Their ways back in (end-user-recovery.ts). */
  recoveryOf(from: Db, projectId: string, userId: string, activePasskeys: number): Promise<EndUserRecovery>;
}) {
  const refs = oidcRefs(secretBox);

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

  return {
    async get(projectId: string, userId: string): Promise<EndUserDetail> {
      const user = await findEndUser(db, projectId, userId);
      if (!user) throw notFound('No such user in this project');
      const devices = await devicesOfUser(db, projectId, userId);
      const [sessions, recovery] = await Promise.all([
        sessionsAnswer(db, projectId, userId, devices),
        recoveryOf(db, projectId, userId, devices.filter((d) => !d.revoked).length),
      ]);
      return { ...user, devices, sessions, recovery, profile: await profileOf(db, projectId, userId) };
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
        profile: await profileOf(db, projectId, userId),
        devices,
        sessions: await sessionsAnswer(db, projectId, userId, devices),
        // Their events name them by id, or by their identity's pseudonym before they were a person (docs/decisions/0046).
        events: await eventsOfUser(db, projectId, [userId, identityPseudonym(secretBox, projectId, user.identity)]),
      };
    },
  };
}
