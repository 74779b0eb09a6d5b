import { api, request } from '../../../lib/api/index.ts';
import { browser } from '../../../lib/browser.ts';

/** GET projects/{project}/users/{user}/data (GDPR art. 15 and 20), saved as `user-{id}.json`. */
export async function exportUserData(projectId: string, userId: string): Promise<void> {
  const data = await request(api.exportEndUserData, { params: { project: projectId, user: userId } });
  browser.save(new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }), `user-${userId}.json`);
}
