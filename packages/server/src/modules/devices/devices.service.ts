import { DomainError, requireDateRange, REVOCATION_REASON, type BulkRevocation, type BulkRevocationBody, type Revocation } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import { activeMatchingIds, countActiveMatching, findDevice } from '../../people/devices.repository.ts';
import { findProjectUser } from '../../people/end-users.repository.ts';
import { lockOpenProject } from '../../people/open-project.ts';
import { revokePasskey } from '../../people/revocation.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';

export interface DevicesServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
  /** Sends the back-channel logout notices queued by a revocation now (they are sent at the next poll otherwise). */
  logoutNoticesQueued?: () => void;
}

export function createDevicesService({ db, clock, audit, secretBox, logoutNoticesQueued = () => undefined }: DevicesServiceDeps) {
  /**
   * Inside a write's transaction, with the project locked open: revokes one active device of the
   * project through the one cascade (people/revocation.ts) and writes its audit event. Null when
   * there is no active device of that id.
   */
  async function revokeIn(tx: Db, actor: Actor, projectId: string, mpinId: string, extraDetails: Record<string, unknown> = {}) {
    const cascade = await revokePasskey(tx, secretBox, { projectId, mpinId, reason: REVOCATION_REASON, now: clock.now() });
    if (!cascade) return null;
    const { device: revoked, sessionsEnded, logoutNotices } = cascade;
    const owner = await findProjectUser(tx, projectId, revoked.userId);
    await audit(tx, {
      actor,
      action: 'device.revoke',
      result: 'success',
      projectId,
      changes: changesBetween({ revoked: false, revokeReason: null }, { revoked: revoked.revoked, revokeReason: revoked.revokeReason }),
      details: { mpinId, userId: revoked.userId, reason: REVOCATION_REASON, sessionsEnded, logoutNotices, ...extraDetails },
      subject: { userId: owner?.identity ?? null, deviceName: revoked.name },
    });
    return revoked;
  }

  return {
    /**
     * spec §7 "Devices" revocation, spec §4 "Device: Active -> Revoked (one way)". In one
     * transaction: the device of this project is marked revoked, the provider sessions started with
     * it end (with their grants, codes and tokens), and the audit event is written. A device of
     * another project is not found; a second revocation changes nothing and is a conflict.
     */
    async revoke(actor: Actor, projectId: string, mpinId: string): Promise<Revocation> {
      const answer = await db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        if (!(await revokeIn(tx, actor, projectId, mpinId))) {
          if (await findDevice(tx, projectId, mpinId)) throw new DomainError('conflict', 'This device is already revoked');
          throw notFound('No such device in this project');
        }
        return { mpinId, revoked: true as const };
      });
      logoutNoticesQueued();
      return answer;
    },

    /**
     * Issue 9 "Beyond the spec": revoke every device matching the list's filter, a batch per call
     * (docs/decisions/0019 "Bulk revocation"). In one transaction per call: the active matching
     * devices are counted; `limit` 0 answers the count alone (the confirm's number); more than
     * `expectedCount` (what the person confirmed) is a conflict and revokes nothing; else up to
     * `limit` of them, oldest first, are revoked each exactly as `revoke` does it, an audit event
     * each (details.bulk). Only active devices match, so a call repeated after an interruption goes
     * on where the last committed one stopped.
     */
    async revokeMatching(actor: Actor, projectId: string, body: BulkRevocationBody): Promise<BulkRevocation> {
      const range = requireDateRange(body.filter, clock.now());
      const answer = await db.transaction(async (tx) => {
        await lockOpenProject(tx, projectId);
        const matching = await countActiveMatching(tx, projectId, range, body.filter);
        if (body.limit === 0) return { revoked: 0, remaining: matching };
        const expected = body.expectedCount ?? 0;
        if (matching > expected) {
          throw new DomainError(
            'conflict',
            `${matching} active devices match this filter now, more than the ${expected} confirmed; count them again and confirm`,
          );
        }
        let revoked = 0;
        for (const mpinId of await activeMatchingIds(tx, projectId, range, body.filter, body.limit)) {
          // A device revoked by someone else since the count is skipped, not an error.
          if (await revokeIn(tx, actor, projectId, mpinId, { bulk: true })) revoked += 1;
        }
        return { revoked, remaining: Math.max(0, matching - revoked) };
      });
      if (answer.revoked > 0) logoutNoticesQueued();
      return answer;
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
