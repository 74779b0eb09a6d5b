import { api } from '../../../lib/api/index.ts';
import { download } from '../../../lib/api/download.ts';
import { browser } from '../../../lib/browser.ts';

/** GET projects/{project}/users/migration-export (docs/decisions/0052): every user and their passkeys' public data, as JSON Lines. */
export async function exportForMigration(projectId: string): Promise<number> {
  const file = await download(api.exportEndUsersForMigration, { params: { project: projectId }, fallbackName: `users-${projectId}.jsonl` });
  browser.save(file.blob, file.filename);
  return file.lines;
}
