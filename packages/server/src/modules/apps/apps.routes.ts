import type { FastifyInstance } from 'fastify';
import { appsApi } from '@latchkey/domain';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { AppsService } from './apps.service.ts';

/**
 * spec §7 "Applications". An application and its keys are versioned contract entries: read with
 * their version as the ETag, written under If-Match (docs/decisions/0007).
 */
export function registerAppRoutes(app: FastifyInstance, apps: AppsService): void {
  registerEndpoint(app, appsApi.listApps, async ({ params, query }) => apps.listApps(params.project, query));
  registerEndpoint(app, appsApi.createApp, async ({ body, actor }) => apps.createApp(actor(), body));
  registerEndpoint(app, appsApi.getApp, async ({ params }) => apps.getApp(params.application));
  registerEndpoint(app, appsApi.updateApp, async ({ params, body, actor, ifMatch }) => apps.updateApp(actor(), params.application, body, ifMatch));
  registerEndpoint(app, appsApi.createAppKeys, async ({ params, body, actor }) => apps.createKeys(actor(), params.application, body));
  registerEndpoint(app, appsApi.getAppKeys, async ({ params }) => apps.getKeys(params.application));
  registerEndpoint(app, appsApi.updateAppKeys, async ({ params, body, actor, ifMatch }) =>
    apps.updateKeys(actor(), params.application, body, ifMatch),
  );
  registerEndpoint(app, appsApi.generateAppKeys, async ({ params, body, actor, ifMatch }) =>
    apps.generateKeys(actor(), params.application, body, ifMatch),
  );
}
