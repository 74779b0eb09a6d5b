import type { Db } from '../db/db.ts';
import { notFound, projectClosed } from '../errors.ts';
import { lockProjectForDeviceWrite } from './devices.repository.ts';

/**
 * Inside a write's transaction: the project held open until it commits (a shared row lock, so it
 * cannot be closed meanwhile); 404 when there is no such project, 409 when it is closed (spec §4:
 * a closed project is read-only). Devices, end users and webhooks write under it.
 */
export async function lockOpenProject(tx: Db, projectId: string): Promise<void> {
  const project = await lockProjectForDeviceWrite(tx, projectId);
  if (!project) throw notFound();
  if (!project.enabled) throw projectClosed();
}
