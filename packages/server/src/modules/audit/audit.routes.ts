import type { FastifyInstance } from 'fastify';
import { auditApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { AuditListService } from './audit-list.ts';

/** spec §7 "Audit". */
export function registerAuditRoutes(app: FastifyInstance, auditList: AuditListService): void {
  registerEndpoint(app, auditApi.listAuditEvents, async ({ params, query }) => auditList.list(params.project, query));
  registerEndpoint(app, auditApi.exportAuditEvents, async ({ params, query }) => auditList.export(params.project, query));
}
