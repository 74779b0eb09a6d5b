import { IMPORTED_PASSWORD_DAYS } from '@latchkey/domain';
import type { Db } from '../db/db.ts';
import { notFound, projectClosed } from '../errors.ts';

/**
 * Inside a write's transaction: the project held open until it commits (a shared row lock, so it
 * cannot be closed meanwhile); 404 when there is no such project, 409 when it is closed (spec §4:
 * a closed project is read-only). Devices, end users and webhooks write under it.
 */
export async function lockOpenProject(tx: Db, projectId: string): Promise<void> {
  const { rows } = await tx.query<{ enabled: boolean }>('SELECT enabled FROM projects WHERE id = $1 FOR SHARE', [projectId]);
  openOrRefused(rows[0]);
}

function openOrRefused(project: { enabled: boolean } | undefined): void {
  if (!project) throw notFound();
  if (!project.enabled) throw projectClosed();
}

/**
 * lockOpenProject for a chunk of a user import (docs/decisions/0052), answering the days its
 * imported password hashes are kept: the project's importedPasswordDays as it is now (the default
 * for a project saved before the setting existed).
 */
export async function lockOpenProjectForImport(tx: Db, projectId: string): Promise<{ importedPasswordDays: number }> {
  const { rows } = await tx.query<{ enabled: boolean; days: unknown }>(
    `SELECT enabled, settings -> 'importedPasswordDays' AS days FROM projects WHERE id = $1 FOR SHARE`,
    [projectId],
  );
  openOrRefused(rows[0]);
  const days = rows[0]?.days;
  return { importedPasswordDays: typeof days === 'number' ? days : IMPORTED_PASSWORD_DAYS.default };
}
