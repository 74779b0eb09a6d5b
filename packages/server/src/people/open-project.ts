import type { Db } from '../db/db.ts';
import { notFound, projectClosed } from '../errors.ts';

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

/** Inside a write's transaction: whether the project is open, held so until commit (a close waits); null when there is none. */
async function lockProjectForDeviceWrite(tx: Db, projectId: string): Promise<{ enabled: boolean } | null> {
  const { rows } = await tx.query<{ enabled: boolean }>('SELECT enabled FROM projects WHERE id = $1 FOR SHARE', [projectId]);
  return rows[0] ?? null;
}
