import { DomainError, REVOCATION_REASON, type Revocation } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { SecretBox } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { endSessionsOfDevice } from '../../idp/oidc-payloads.repository.ts';
import { findDevice, lockProjectForDeviceWrite, revokeDevice } from '../../provider/devices.repository.ts';
import { findProjectUser } from '../../provider/project-users.repository.ts';
import { deleteCodesIssuedBy } from '../../provider/registration-codes.repository.ts';
import type { Actor } from '../accounts/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';

export interface DevicesServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  secretBox: SecretBox;
}

export function createDevicesService({ db, clock, audit, secretBox }: DevicesServiceDeps) {
  return {
    /**
     * spec §7 "Devices" revocation, spec §4 "Device: Active -> Revoked (one way)". In one
     * transaction: the device of this project is marked revoked, the provider sessions started with
     * it end (with their grants, codes and tokens), and the audit event is written. A device of
     * another project is not found; a second revocation changes nothing and is a conflict.
     */
    async revoke(actor: Actor, projectId: string, mpinId: string): Promise<Revocation> {
      return db.transaction(async (tx) => {
        const project = await lockProjectForDeviceWrite(tx, projectId);
        if (!project) throw notFound();
        if (!project.enabled) throw projectClosed();
        const revoked = await revokeDevice(tx, { projectId, id: mpinId, reason: REVOCATION_REASON, now: clock.now() });
        if (!revoked) {
          if (await findDevice(tx, projectId, mpinId)) throw new DomainError('conflict', 'This device is already revoked');
          throw notFound('No such device in this project');
        }
        const sessionsEnded = await endSessionsOfDevice(tx, secretBox, projectId, mpinId);
        await deleteCodesIssuedBy(tx, projectId, mpinId);
        const owner = await findProjectUser(tx, projectId, revoked.userId);
        await audit(tx, {
          actor,
          action: 'device.revoke',
          result: 'success',
          projectId,
          changes: changesBetween({ revoked: false, revokeReason: null }, { revoked: revoked.revoked, revokeReason: revoked.revokeReason }),
          details: { mpinId, userId: revoked.userId, reason: REVOCATION_REASON, sessionsEnded },
          subject: { userId: owner?.identity ?? null, deviceName: revoked.name },
        });
        return { mpinId, revoked: true };
      });
    },
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
