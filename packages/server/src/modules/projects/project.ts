import {
  DomainError,
  globalPermission,
  guards,
  hasAnyPermission,
  newProjectSettings,
  normalizeProjectSettings,
  projectPermission,
  redactProjectSecrets,
  type Project,
  type ProjectSettings,
  type ProjectSummary,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomBase32 } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { notFound } from '../../errors.ts';
import type { Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import { findAccountById, grantPermissions, listPermissions, lockAccount } from '../accounts/accounts.repository.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import {
  claimOwnHost,
  countProjectsCreatedBy,
  findProject,
  insertProject,
  listAllProjects,
  listProjectsOfAccount,
  projectExists,
} from './projects.repository.ts';

/** 16 characters of base32: 80 random bits, safe in URLs and in cst:{project}:… strings. */
export function newProjectId(): string {
  return randomBase32(10);
}

/** What a caller reads: the project without its write-only secrets. */
export function view(project: Versioned<Project>): Versioned<Project> {
  return { value: redactProjectSecrets(project.value), version: project.version };
}

export function settingsOf(project: Project): ProjectSettings {
  const { id: _id, enabled: _enabled, ...settings } = project;
  return settings;
}

/** Inside a transaction: the project row, locked until the transaction ends. */
export async function lockProjectForWrite(tx: Db, projectId: string): Promise<Versioned<Project>> {
  const found = await findProject(tx, projectId, { forUpdate: true });
  if (!found) throw notFound();
  return found;
}

/** The project itself: whether it exists, who sees it, its creation, its reading. */
export function createProjectCalls({
  db,
  clock,
  audit,
  projectsPerAccount,
  ownHostOf,
}: {
  db: Db;
  clock: Clock;
  audit: AuditHook;
  projectsPerAccount: number;
  /** docs/decisions/0047: the own host a new project's issuer gets, or null (it is under PUBLIC_URL). */
  ownHostOf: (projectId: string) => string | null;
}) {
  return {
    projectExists: (projectId: string) => projectExists(db, projectId),

    /**
     * spec §7 "GET accounts/{accountId}/projects": one's own list, or anyone's for a global
     * accounts manager. Any global permission lists every project (docs/decisions/0004).
     */
    async listAccountProjects(actor: Actor, accountId: string): Promise<ProjectSummary[]> {
      let permissions = actor.permissions;
      if (accountId !== actor.accountId) {
        if (!hasAnyPermission(actor.permissions, [globalPermission('accounts')])) {
          throw new DomainError('forbidden', 'You may list only your own projects');
        }
        const account = await findAccountById(db, accountId);
        if (!account) throw notFound();
        permissions = await listPermissions(db, accountId);
      }
      if (hasAnyPermission(permissions, guards.globalUnlock)) return listAllProjects(db);
      return listProjectsOfAccount(db, accountId);
    },

    /**
     * spec §7 "POST projects": any signed-in account (self-service sign-up); the creator is granted
     * cst:{project}:*. An account without a global permission may create at most
     * `projectsPerAccount` projects — counted under a lock on the account, so parallel requests
     * cannot pass the cap together. The creator's email recorded is the caller's own.
     */
    async createProject(actor: Actor, input: { name: string; pinLength: number; email: string }): Promise<{ id: string }> {
      // A service account belongs to its project (issue 12): it would own the projects it made,
      // beyond what its project's administrators can see or take back.
      if (actor.via === 'bearer') throw new DomainError('forbidden', 'A service account cannot create projects');
      return db.transaction(async (tx) => {
        if (!hasAnyPermission(actor.permissions, guards.globalUnlock)) {
          await lockAccount(tx, actor.accountId);
          if ((await countProjectsCreatedBy(tx, actor.accountId)) >= projectsPerAccount) {
            throw new DomainError(
              'forbidden',
              `You have created the most projects an account may create (${projectsPerAccount}); ask an administrator of all projects for more`,
            );
          }
        }
        const id = newProjectId();
        const settings = normalizeProjectSettings(newProjectSettings(input.name, input.pinLength));
        const email = (actor.email ?? input.email).toLowerCase();
        await insertProject(tx, { id, email, createdBy: actor.accountId, settings, now: clock.now() });
        // docs/decisions/0047: a new project's issuer is on its own host (stored: never moved by a configuration change).
        const own = ownHostOf(id);
        const ownHost = own !== null && (await claimOwnHost(tx, id, own)) ? own : null;
        await grantPermissions(tx, actor.accountId, [projectPermission(id, '*')]);
        await audit(tx, {
          actor,
          action: 'project.create',
          result: 'created',
          projectId: id,
          changes: changesBetween(null, { name: settings.name, pinLength: settings.pinLength, email }),
          details: { granted: [projectPermission(id, '*')], ...(ownHost ? { issuer: ownHost } : {}) },
        });
        return { id };
      });
    },

    async getProject(projectId: string): Promise<Versioned<Project>> {
      const found = await findProject(db, projectId);
      if (!found) throw notFound();
      return view(found);
    },
  };
}
