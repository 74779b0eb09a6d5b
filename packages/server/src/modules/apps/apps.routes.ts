import type { FastifyInstance, FastifyReply } from 'fastify';
import { appsApi } from '@latchkey/domain';
import { ifMatchVersion, sendVersioned } from '../../http/etag.ts';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { AppsService } from './apps.service.ts';

/** An answer carrying a client secret must not be kept by any cache. */
function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}

/**
 * spec §7 "Applications". An application and its keys are each read with their version as the
 * ETag, and each write honours If-Match (docs/decisions/0007).
 */
export function registerAppRoutes(app: FastifyInstance, apps: AppsService): void {
  registerEndpoint(app, appsApi.listApps, async ({ params, query }) => apps.listApps(params.project, query));

  registerEndpoint(app, appsApi.createApp, async ({ body, actor }) => apps.createApp(actor(), body));

  registerEndpoint(app, appsApi.getApp, async ({ params, reply }) => sendVersioned(reply, await apps.getApp(params.application)));

  registerEndpoint(app, appsApi.updateApp, async ({ params, body, actor, request, reply }) =>
    sendVersioned(reply, await apps.updateApp(actor(), params.application, body, ifMatchVersion(request))),
  );

  registerEndpoint(app, appsApi.createAppKeys, async ({ params, body, actor, reply }) => {
    noStore(reply);
    return sendVersioned(reply, await apps.createKeys(actor(), params.application, body.redirectURI));
  });

  registerEndpoint(app, appsApi.getAppKeys, async ({ params, reply }) => sendVersioned(reply, await apps.getKeys(params.application)));

  registerEndpoint(app, appsApi.updateAppKeys, async ({ params, body, actor, request, reply }) =>
    sendVersioned(reply, await apps.updateKeys(actor(), params.application, body.redirectURI, ifMatchVersion(request))),
  );

  registerEndpoint(app, appsApi.generateAppKeys, async ({ params, body, actor, request, reply }) => {
    noStore(reply);
    return sendVersioned(reply, await apps.generateKeys(actor(), params.application, body.redirectURI, ifMatchVersion(request)));
  });
}
