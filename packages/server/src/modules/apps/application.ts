import {
  canSaveApplication,
  DomainError,
  type Application,
  type ApplicationListQuery,
  type ApplicationType,
  type PlatformCode,
} from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { notFound, projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import {
  applicationsTable,
  findApplication,
  findProjectOfApplication,
  freshCounts,
  insertApplication,
  lockProjectForAppWrite,
  saveApplication,
} from './apps.repository.ts';
import { newApplicationId } from './client-secret.ts';

export const disabledApp = (what: string) => new DomainError('conflict', `The application is disabled; enable it before ${what}`);

/**
 * Inside a transaction, before any write to an application: the project must be enabled (spec §4:
 * changes to a closed project's apps are blocked) and stays so until commit; then the
 * application row, locked. Project first, then application: the order every writer takes.
 */
export async function lockAppForWrite(tx: Db, applicationId: string): Promise<Versioned<Application>> {
  const projectId = await findProjectOfApplication(tx, applicationId);
  if (!projectId) throw notFound();
  const project = await lockProjectForAppWrite(tx, projectId);
  if (!project) throw notFound();
  if (!project.enabled) throw projectClosed();
  const found = await findApplication(tx, applicationId, { forUpdate: true });
  if (!found) throw notFound();
  return found;
}

/** The application itself: listed, created, read, renamed, disabled and enabled. */
export function createApplicationCalls({ db, clock, audit }: { db: Db; clock: Clock; audit: AuditHook }) {
  return {
    /** For the endpoint guard: the project of an application, or null (answered as 404). */
    projectOfApplication: (applicationId: string) => findProjectOfApplication(db, applicationId),

    /** spec §7 "GET projects/{project}/apps": filtered, sorted (name ascending by default), paged. */
    async listApps(projectId: string, query: ApplicationListQuery): Promise<{ total: number; list: Application[] }> {
      await freshCounts(db, projectId);
      return applicationsTable.page(db, projectId, query);
    },

    /** spec §7 "POST apps": the project comes from the body (the guard has checked it). */
    async createApp(
      actor: Actor,
      input: { platformCode: PlatformCode; applicationType: ApplicationType; name: string; url: string; projectId: string },
    ): Promise<{ id: string; projectId: string; keysEndpoint: string }> {
      return db.transaction(async (tx) => {
        const project = await lockProjectForAppWrite(tx, input.projectId);
        if (!project) throw notFound();
        if (!project.enabled) throw projectClosed();
        const { value: created } = await insertApplication(tx, {
          id: newApplicationId(),
          projectId: input.projectId,
          name: input.name,
          platformCode: input.platformCode,
          applicationType: input.applicationType,
          url: input.url,
          now: clock.now(),
        });
        await audit(tx, {
          actor,
          action: 'app.create',
          result: 'created',
          projectId: input.projectId,
          changes: changesBetween(null, {
            name: created.name,
            platformCode: created.platformCode,
            applicationType: created.applicationType,
            url: input.url,
          }),
          details: { applicationId: created.id, name: created.name },
        });
        return { id: created.id, projectId: created.projectId, keysEndpoint: created.keysEndpoint };
      });
    },

    async getApp(applicationId: string): Promise<Versioned<Application>> {
      const found = await findApplication(db, applicationId);
      if (!found) throw notFound();
      return found;
    },

    /**
     * spec §7 "PUT apps/{application}": rename, change the logo, disable or enable — each one a
     * save. spec §4: save is disabled while the app is disabled, so a disabled application takes
     * only "enable" (a repeated "disable" that changes nothing is answered as it is).
     */
    async updateApp(
      actor: Actor,
      applicationId: string,
      update: { name: string; logoUrl: string; enabled: boolean },
      ifMatch: number | null,
    ): Promise<Versioned<Application>> {
      return db.transaction(async (tx) => {
        const current = await lockAppForWrite(tx, applicationId);
        const before = current.value;
        checkVersion(current.version, ifMatch, 'application');
        if (!canSaveApplication(before, { enabled: true }) && !update.enabled) {
          if (update.name === before.name && update.logoUrl === before.logoUrl) return current;
          throw disabledApp('changing it');
        }
        const saved = await saveApplication(tx, { id: applicationId, ...update, now: clock.now() });
        const disabling = before.enabled && !saved.value.enabled;
        const enabling = !before.enabled && saved.value.enabled;
        await audit(tx, {
          actor,
          action: disabling ? 'app.disable' : enabling ? 'app.enable' : 'app.update',
          result: disabling ? 'disabled' : 'success',
          projectId: before.projectId,
          changes: changesBetween(
            { name: before.name, logoUrl: before.logoUrl, enabled: before.enabled },
            { name: saved.value.name, logoUrl: saved.value.logoUrl, enabled: saved.value.enabled },
          ),
          details: { applicationId, name: saved.value.name, version: saved.version },
        });
        return saved;
      });
    },
  };
}
