import type { Db } from '../../db/db.ts';
import { iso } from '../../db/rows.ts';
import { exportFile, type ExportFile } from '../../http/export-file.ts';
import { passkeysOfUsers } from '../../people/devices.repository.ts';
import { usersAfter } from '../../people/end-users.repository.ts';

const EXPORT_BATCH = 1000;

/**
 * The migration export (issue 37, docs/decisions/0052): every person of the project in the
 * import's JSON Lines, with their passkeys' public data, a batch at a time (the export helper's
 * back-pressure), so a team can leave as easily as it came. Revoked passkeys are left out; no hash
 * or secret is ever written.
 */
export function migrationExport(db: Db, projectId: string): ExportFile {
  async function* batches() {
    let after: string | null = null;
    for (;;) {
      const users = await usersAfter(db, projectId, after, EXPORT_BATCH);
      if (users.length === 0) return;
      const passkeys = await passkeysOfUsers(
        db,
        projectId,
        users.map((u) => u.id),
      );
      yield users.map((u) => ({ ...u, passkeys: passkeys.get(u.id) ?? [] }));
      after = (users.at(-1) as { id: string }).id;
    }
  }
  return exportFile({
    format: 'jsonl',
    filename: `users-${projectId.replace(/[^A-Za-z0-9._-]/g, '_')}`,
    batches: batches(),
    columns: [],
    json: (u) => ({
      id: u.id,
      email: u.email,
      verified: u.verified,
      name: u.name,
      externalId: u.externalId,
      createdAt: iso(u.createdAt),
      passkeys: u.passkeys,
    }),
  });
}
