import { DomainError, foreignPermissions, normalizePermissions, ungrantablePermissions } from '@latchkey/domain';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import type { Actor } from '../../http/actor.ts';
import { findProject } from '../projects/projects.repository.ts';
import { lockProjectAccounts, projectsWithoutAdministrator } from './account-list.repository.ts';
import { listPermissions, lockAccountCreation } from './accounts.repository.ts';

// Issue 12 (docs/decisions/0022): the rules every account change keeps, whatever the console shows.

function forbidden(permissions: string[], why: string): DomainError {
  return new DomainError(
    'forbidden',
    `${why}: ${permissions.join(', ')}`,
    permissions.map(() => ({ field: 'permissions', code: 'forbidden', message: why })),
  );
}

/**
 * Inside a transaction: account changes run one at a time across the installation (a status and
 * a global permission hold in every project, so two changes in two projects could otherwise
 * each remove the other's administrator), the project must be open, and the actor's permissions
 * are read again under that lock (a grant does not outrun the actor's own demotion).
 */
export async function beginAccountChange(tx: Db, actor: Actor, projectId: string): Promise<{ projectName: string; held: string[] }> {
  await lockAccountCreation(tx);
  await lockProjectAccounts(tx, projectId);
  const project = await findProject(tx, projectId);
  if (!project) throw notFound();
  if (!project.value.enabled) throw projectClosed();
  return { projectName: project.value.name, held: await listPermissions(tx, actor.accountId) };
}

/** The permissions asked for, normalised (spec §5: a parent stands for its children), checked against the project and the actor. */
export function checkedPermissions(projectId: string, asked: readonly string[]): string[] {
  const foreign = foreignPermissions(asked, projectId);
  if (foreign.length > 0) {
    throw new DomainError('validation_failed', `Not a permission of this project: ${foreign.join(', ')}`, [
      { field: 'permissions', code: 'validation.invalid_value', message: 'Invalid value' },
    ]);
  }
  return normalizePermissions(asked);
}

/** No one grants or removes what they do not hold (issue 12): 403 naming each such permission, nothing changed. */
export function checkGrantable(held: readonly string[], before: readonly string[], after: readonly string[]): void {
  const added = after.filter((p) => !before.includes(p));
  const removed = before.filter((p) => !after.includes(p));
  const refused = ungrantablePermissions(held, [...added, ...removed]);
  if (refused.length > 0) throw forbidden(refused, 'You can only give or take away permissions you hold yourself');
}

/** Acting on an account as a whole (its status, its token) needs everything it holds, in every project. */
export async function checkHoldsAllOf(tx: Db, held: readonly string[], accountId: string, why: string): Promise<void> {
  const beyond = ungrantablePermissions(held, await listPermissions(tx, accountId));
  if (beyond.length > 0) throw forbidden(beyond, why);
}

/** After a change: no project that had an active administrator before it is left without one (status and global permissions reach every project). */
export async function keepsAdministrators(tx: Db, before: ReadonlySet<string>): Promise<void> {
  const lost = [...(await projectsWithoutAdministrator(tx))].filter((id) => !before.has(id));
  if (lost.length > 0) {
    throw new DomainError('conflict', 'A project must keep at least one active account holding all of its permissions (select all)');
  }
}
