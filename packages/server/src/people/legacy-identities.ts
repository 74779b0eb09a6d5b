import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import { renameEventUser, WEBHOOK_KIND } from '../events/audit-events.repository.ts';
import { identityPseudonym } from '../events/end-user-event.ts';
import { renameSubject } from '../outbox/outbox.repository.ts';

/** Identities rewritten per transaction. */
const BATCH = 100;

/**
 * Migration 0034 (docs/decisions/0046) turned the identities stored in events and webhook messages
 * into their person's id; the identities of no person it could not hash (the key is not in the
 * database), so it listed them in event_identities_to_pseudonymise, this file's table. At start-up
 * each becomes its keyed pseudonym — the same one the events of today store, so the audit filter
 * finds both — a batch a transaction, each removed from the list as it is done; concurrent
 * instances skip each other's rows. Nothing to do (an empty list) costs one query. Answers how many.
 */
export async function pseudonymiseLegacyIdentities(db: Db, secretBox: SecretBox): Promise<number> {
  let done = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ project_id: string; identity: string }>(
        `DELETE FROM event_identities_to_pseudonymise WHERE (project_id, identity) IN (
           SELECT project_id, identity FROM event_identities_to_pseudonymise LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING project_id, identity`,
      );
      for (const { project_id: projectId, identity } of rows) {
        const pseudonym = identityPseudonym(secretBox, projectId, identity);
        await renameEventUser(tx, { projectId, identity, pseudonym });
        await renameSubject(tx, { projectId, kind: WEBHOOK_KIND, from: identity, to: pseudonym });
      }
      return rows.length;
    });
    done += n;
    if (n < BATCH) return done;
  }
}
