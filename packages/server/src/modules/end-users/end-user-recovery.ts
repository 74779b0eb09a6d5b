import { DomainError, type EndUserRecovery, type ReenrollmentLink } from '@latchkey/domain';
import { randomToken } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import type { Actor } from '../../http/actor.ts';
import { recoveryTokenHash } from '../../oidc/recovery-codes.ts';
import { EMAIL_RECOVERY_USABLE_MS, reenrollmentUrl } from '../../people/account-recovery.ts';
import { insertReenrollmentLink, openEmailRecoveries, recoveryCodesOf } from '../../people/recovery.repository.ts';
import { countSyncedPasskeys } from '../../people/devices.repository.ts';
import { findIssuer } from '../projects/projects.repository.ts';
import { lockUser, type EndUsersServiceDeps } from './end-user-changes.ts';
import type { IssuerHosts } from '../../issuer/custom-domains.ts';
import { notFound } from '../../errors.ts';

/** How long an administrator's re-enrollment link may be opened (docs/decisions/0051). */
export const REENROLLMENT_LINK_TTL_MS = 24 * 3600_000;

export interface EndUserRecoveryDeps extends EndUsersServiceDeps {
  /** A project's issuer address (its custom domain's, its own host's, else under PUBLIC_URL). */
  issuerAddress(projectId: string, hosts: IssuerHosts): string;
}

/**
 * What an administrator sees and does of an end user's recovery (issue 37, docs/decisions/0051):
 * their recovery state on the user's page, and a one-time re-enrollment link for help-desk recovery.
 */
export function createEndUserRecovery({ db, clock, audit, secretBox, issuerAddress }: EndUserRecoveryDeps) {
  return {
    /** The person's ways back in: active passkeys, recovery codes left, an email recovery under way. */
    async recoveryOf(from: Db, projectId: string, userId: string, activePasskeys: number): Promise<EndUserRecovery> {
      const now = clock.now().getTime();
      const [codes, open, synced] = await Promise.all([
        recoveryCodesOf(from, projectId, userId),
        openEmailRecoveries(from, projectId, userId, new Date(now - EMAIL_RECOVERY_USABLE_MS)),
        countSyncedPasskeys(from, projectId, userId),
      ]);
      const waiting = open.find((r) => r.notBefore.getTime() > now);
      return {
        passkeys: activePasskeys,
        syncedPasskeys: synced,
        recoveryCodesLeft: codes.createdAt ? codes.left : null,
        recoveryCodesCreatedAt: codes.createdAt && iso(codes.createdAt),
        emailRecoveryUntil: waiting ? iso(waiting.notBefore) : null,
      };
    },

    /**
     * A one-time link for the user, valid REENROLLMENT_LINK_TTL_MS, audited (`recovery.link_created`,
     * a webhook event); answered once: only its keyed hash is stored. A blocked user gets none (409).
     */
    async createReenrollmentLink(actor: Actor, projectId: string, userId: string): Promise<ReenrollmentLink> {
      return db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        if (user.status === 'blocked') throw new DomainError('conflict', 'This user is blocked: unblock them first');
        const issuer = await findIssuer(tx, projectId);
        if (!issuer) throw notFound('No such project');
        const token = randomToken(32);
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + REENROLLMENT_LINK_TTL_MS);
        await insertReenrollmentLink(tx, {
          projectId,
          tokenHash: recoveryTokenHash(secretBox, 'reenroll', projectId, token),
          userId,
          createdAt: now,
          expiresAt,
        });
        await audit(tx, {
          actor,
          action: 'recovery.link_created',
          result: 'success',
          projectId,
          details: { userRef: userId, expiresAt: iso(expiresAt) },
          subject: { userId: user.identity, deviceName: null },
        });
        return { url: reenrollmentUrl(issuerAddress(projectId, issuer.hosts), token), expiresAt: iso(expiresAt) };
      });
    },
  };
}
