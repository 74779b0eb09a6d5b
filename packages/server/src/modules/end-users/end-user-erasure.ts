import type { EndUserErased } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import type { Actor } from '../../http/actor.ts';
import { pseudonymiseEventsOf } from '../../events/audit-events.repository.ts';
import { identityPseudonym } from '../../events/end-user-event.ts';
import { deleteLoginCodesOf } from '../../oidc/login-codes.repository.ts';
import { userDevices } from '../../people/devices.repository.ts';
import { deleteEndUser } from '../../people/end-users.repository.ts';
import { requestScrub } from '../../people/erasure-scrub.ts';
import { deleteVerificationsOf } from '../../people/identity-verifications.repository.ts';
import { cutOff } from '../../people/revocation.ts';
import { deleteMessagesOf } from '../webhooks/webhooks.repository.ts';
import { lockUser, type EndUsersServiceDeps } from './end-user-changes.ts';

/**
 * Erasure (issue 24, GDPR art. 17; docs/decisions/0038), once the person is cut off: the codes and
 * verification links mailed to their identity and the webhook messages that name them go, their
 * audit events name them by `pseudonym` only, then the person goes, and their passkeys with them
 * (foreign keys). Usage counts are not touched. Each table's owner does its part; answers how many
 * events were pseudonymised.
 */
async function eraseTraces(
  tx: Db,
  e: { projectId: string; id: string; identity: string; identityPseudonym: string; pseudonym: string },
): Promise<number> {
  // What their events and messages store: their id, or their identity's pseudonym (docs/decisions/0046).
  const refs = [e.id, e.identityPseudonym];
  await deleteLoginCodesOf(tx, e.projectId, e.identity);
  await deleteVerificationsOf(tx, e.projectId, e.identity);
  await deleteMessagesOf(tx, e.projectId, refs, e.identity);
  const credentials = (await userDevices(tx, e.projectId, e.id)).map((d) => d.id);
  const events = await pseudonymiseEventsOf(tx, { ...e, refs, credentials });
  await deleteEndUser(tx, e.projectId, e.id);
  return events;
}

/** An end user erased (issue 24, GDPR art. 17; docs/decisions/0038). */
export function createEndUserErasure({ db, clock, audit, secretBox, logoutNoticesQueued = () => undefined }: EndUsersServiceDeps) {
  /** The stable name an erased user's events keep: the same for all of them, and nothing of the person. */
  const pseudonymOf = (projectId: string, userId: string) =>
    `deleted-${secretBox.hmac('end-user-pseudonym', `${projectId}\n${userId}`).slice(0, 16)}`;

  return {
    /** Erasure (GDPR art. 17): see eraseTraces; the event of it names the pseudonym, not the person. */
    async erase(actor: Actor, projectId: string, userId: string): Promise<EndUserErased> {
      const pseudonym = pseudonymOf(projectId, userId);
      const answer = await db.transaction(async (tx) => {
        const user = await lockUser(tx, projectId, userId);
        const ended = await cutOff(tx, secretBox, { projectId, userId, cause: 'user_deleted', now: clock.now() });
        await requestScrub(tx, projectId, clock.now());
        const events = await eraseTraces(tx, {
          projectId,
          id: userId,
          identity: user.identity,
          identityPseudonym: identityPseudonym(secretBox, projectId, user.identity),
          pseudonym,
        });
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
