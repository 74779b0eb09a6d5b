import {
  applyMeta,
  changedBillingFields,
  changedLockedFields,
  defaultIssuer,
  DomainError,
  guards,
  hasAnyPermission,
  newProjectSettings,
  normalizeProjectSettings,
  keepStoredSecrets,
  projectPermission,
  redactProjectSecrets,
  type Issuer,
  type Project,
  type ProjectMeta,
  type ProjectSettings,
  type ProjectSummary,
  type ProjectUpdate,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import { randomBase32 } from '../../crypto.ts';
import type { Db } from '../../db/db.ts';
import { HttpDomainError } from '../../errors.ts';
import type { Actor } from '../accounts/actor.ts';
import { findAccountById, grantPermissions, listPermissions } from '../accounts/accounts.repository.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import {
  findProject,
  insertProject,
  listAllProjects,
  listProjectsOfAccount,
  projectExists,
  saveProject,
  type ProjectRecord,
} from './projects.repository.ts';

/** A value with the version it was read at (sent as the ETag; If-Match compares against it). */
export interface Versioned<T> {
  value: T;
  version: number;
}

export interface ProjectsServiceDeps {
  db: Db;
  clock: Clock;
  audit: AuditHook;
}

/** 16 characters of base32: 80 random bits, safe in URLs and in cst:{project}:… strings. */
export function newProjectId(): string {
  return randomBase32(10);
}

function toProject(record: ProjectRecord): Project {
  return { ...record.settings, id: record.id, enabled: record.enabled };
}

/** What a caller reads: the project without its write-only secrets. */
function toProjectView(record: ProjectRecord): Project {
  return redactProjectSecrets(toProject(record));
}

function forbiddenFields(fields: string[], why: string): DomainError {
  return new DomainError(
    'forbidden',
    `${why} may change ${fields.join(', ')}`,
    fields.map((field) => ({ field, code: 'forbidden', message: `${why} may change this field` })),
  );
}

function settingsOf(project: Project): ProjectSettings {
  const { id: _id, enabled: _enabled, ...settings } = project;
  return settings;
}

const notFound = () => new DomainError('not_found', 'Not found');
const closed = () => new DomainError('project_closed', 'The project is closed; changes cannot be made while it is disabled');

export function createProjectsService({ db, clock, audit }: ProjectsServiceDeps) {
  /** Inside a transaction: the project row, locked until the transaction ends. */
  async function lockForWrite(tx: Db, projectId: string): Promise<ProjectRecord> {
    const record = await findProject(tx, projectId, { forUpdate: true });
    if (!record) throw notFound();
    return record;
  }

  /** Optimistic concurrency: a write based on an older read must not silently win (CONVENTIONS "Data"). */
  function checkVersion(record: ProjectRecord, ifMatch: number | null): void {
    if (ifMatch !== null && ifMatch !== record.version) {
      throw new HttpDomainError('conflict', 'The project was changed by someone else; reload and try again', 412);
    }
  }

  return {
    projectExists: (projectId: string) => projectExists(db, projectId),

    /**
     * spec §7 "GET accounts/{accountId}/projects": one's own list, or anyone's for a global
     * accounts manager. Any global permission lists every project (docs/decisions/0004).
     */
    async listAccountProjects(actor: Actor, accountId: string): Promise<ProjectSummary[]> {
      let permissions = actor.permissions;
      if (accountId !== actor.accountId) {
        if (!hasAnyPermission(actor.permissions, ['glb::accounts'])) {
          throw new DomainError('forbidden', "You may list only your own projects");
        }
        const account = await findAccountById(db, accountId);
        if (!account) throw notFound();
        permissions = await listPermissions(db, accountId);
      }
      if (hasAnyPermission(permissions, guards.globalUnlock)) return listAllProjects(db);
      return listProjectsOfAccount(db, accountId);
    },

    /**
     * spec §7 "POST projects": any signed-in account; the creator is granted cst:{project}:*. The
     * creator's email recorded is the caller's own, whatever the body claims.
     */
    async createProject(actor: Actor, input: { name: string; pinLength: number; email: string }): Promise<{ id: string }> {
      return db.transaction(async (tx) => {
        const id = newProjectId();
        const settings = normalizeProjectSettings(newProjectSettings(input.name, input.pinLength));
        const email = (actor.email ?? input.email).toLowerCase();
        await insertProject(tx, { id, email, settings, issuer: null, now: clock.now() });
        await grantPermissions(tx, actor.accountId, [projectPermission(id, '*')]);
        await audit(tx, { actor, action: 'project.create', projectId: id, details: { name: settings.name } });
        return { id };
      });
    },

    async getProject(projectId: string): Promise<Versioned<Project>> {
      const record = await findProject(db, projectId);
      if (!record) throw notFound();
      return { value: toProjectView(record), version: record.version };
    },

    /**
     * spec §7 "PUT projects/{id}" with the whole project. spec §4: a closed project takes no
     * changes; derived fields are normalised; spec §6 "Global unlock": domains, confirmation URL
     * and association files change only for a global permission. `enabled` changes only via /meta.
     */
    async updateProject(actor: Actor, projectId: string, update: ProjectUpdate, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, projectId);
        if (!record.enabled) throw closed();
        checkVersion(record, ifMatch);
        const { id: _id, enabled: _enabled, ...requested } = update;
        const settings = keepStoredSecrets(record.settings, normalizeProjectSettings(requested));
        const locked = changedLockedFields(record.settings, settings);
        if (locked.length > 0 && !hasAnyPermission(actor.permissions, guards.globalUnlock)) {
          throw forbiddenFields(locked, 'Only an account with a global permission');
        }
        const billing = changedBillingFields(record.settings, settings);
        if (billing.length > 0 && !hasAnyPermission(actor.permissions, guards.reopenProject)) {
          throw forbiddenFields(billing, 'Only an administrator of all projects');
        }
        const saved = await saveProject(tx, { id: projectId, enabled: record.enabled, settings, issuer: record.issuer, now: clock.now() });
        await audit(tx, { actor, action: 'project.update', projectId, details: { version: saved.version } });
        return { value: toProjectView(saved), version: saved.version };
      });
    },

    /**
     * spec §7 "PUT projects/{id}/meta"; spec §4: closing sets enabled false and clears purchaseOrder
     * and referrer. Reopening is not offered to project admins, only to guards.reopenProject.
     */
    async updateMeta(actor: Actor, projectId: string, meta: ProjectMeta, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, projectId);
        const reopening = !record.enabled && meta.enabled;
        // Project admins may only close; reopening and the billing fields (purchaseOrder,
        // referrer) belong to an administrator of all projects.
        if (meta.enabled && !hasAnyPermission(actor.permissions, guards.reopenProject)) {
          throw new DomainError('forbidden', 'Only an administrator of all projects may reopen a project or change its billing details');
        }
        if (!record.enabled && !meta.enabled) throw closed();
        checkVersion(record, ifMatch);
        const next = applyMeta(toProject(record), meta);
        const saved = await saveProject(tx, {
          id: projectId,
          enabled: next.enabled,
          settings: settingsOf(next),
          issuer: record.issuer,
          now: clock.now(),
        });
        const action = !meta.enabled ? 'project.close' : reopening ? 'project.reopen' : 'project.meta';
        await audit(tx, { actor, action, projectId });
        return { value: toProjectView(saved), version: saved.version };
      });
    },

    async getIssuer(projectId: string): Promise<Versioned<Issuer>> {
      const record = await findProject(db, projectId);
      if (!record) throw notFound();
      return { value: record.issuer ?? defaultIssuer(), version: record.version };
    },

    /** spec §7 "PUT projects/{project}/issuer"; refused while the project is closed (spec §4). */
    async updateIssuer(actor: Actor, projectId: string, issuer: Issuer, ifMatch: number | null): Promise<Versioned<Issuer>> {
      return db.transaction(async (tx) => {
        const record = await lockForWrite(tx, projectId);
        if (!record.enabled) throw closed();
        checkVersion(record, ifMatch);
        const saved = await saveProject(tx, { id: projectId, enabled: record.enabled, settings: record.settings, issuer, now: clock.now() });
        await audit(tx, { actor, action: 'issuer.update', projectId });
        return { value: saved.issuer ?? defaultIssuer(), version: saved.version };
      });
    },
  };
}

export type ProjectsService = ReturnType<typeof createProjectsService>;
