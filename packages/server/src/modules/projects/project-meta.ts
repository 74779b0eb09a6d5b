import { applyMeta, DomainError, guards, hasAnyPermission, type Project, type ProjectMeta } from '@latchkey/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/db.ts';
import { projectClosed } from '../../errors.ts';
import { checkVersion, type Versioned } from '../../http/etag.ts';
import type { Actor } from '../../http/actor.ts';
import type { AuditHook } from '../audit/audit.service.ts';
import { changesBetween } from '../audit/changes.ts';
import { lockProjectForWrite, settingsOf, view } from './project.ts';
import { saveProject } from './projects.repository.ts';

/** The fields closing and reopening change (spec §4). */
function metaOf(project: Project): Pick<Project, 'enabled' | 'purchaseOrder' | 'referrer'> {
  return { enabled: project.enabled, purchaseOrder: project.purchaseOrder, referrer: project.referrer };
}

/** A project closed, reopened, or its billing details changed. */
export function createProjectMetaCalls({ db, clock, audit }: { db: Db; clock: Clock; audit: AuditHook }) {
  return {
    /**
     * spec §7 "PUT projects/{id}/meta"; spec §4: closing sets enabled false and clears purchaseOrder
     * and referrer. Reopening is not offered to project admins, only to guards.reopenProject.
     */
    async updateMeta(actor: Actor, projectId: string, meta: ProjectMeta, ifMatch: number | null): Promise<Versioned<Project>> {
      return db.transaction(async (tx) => {
        const current = await lockProjectForWrite(tx, projectId);
        const reopening = !current.value.enabled && meta.enabled;
        // Project admins may only close; reopening and the billing fields (purchaseOrder,
        // referrer) belong to an administrator of all projects.
        if (meta.enabled && !hasAnyPermission(actor.permissions, guards.reopenProject)) {
          throw new DomainError('forbidden', 'Only an administrator of all projects may reopen a project or change its billing details');
        }
        if (!current.value.enabled && !meta.enabled) throw projectClosed();
        checkVersion(current.version, ifMatch, 'project');
        const next = applyMeta(current.value, meta);
        const saved = await saveProject(tx, { id: projectId, enabled: next.enabled, settings: settingsOf(next), now: clock.now() });
        await audit(tx, {
          actor,
          action: !meta.enabled ? 'project.close' : reopening ? 'project.reopen' : 'project.meta',
          result: !meta.enabled ? 'disabled' : 'success',
          projectId,
          changes: changesBetween(metaOf(current.value), metaOf(next)),
          details: { version: saved.version },
        });
        return view(saved);
      });
    },
  };
}
