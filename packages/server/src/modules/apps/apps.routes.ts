import type { FastifyInstance, FastifyReply } from 'fastify';
import { appsApi } from '@latchkey/domain';
import { ifMatchVersion, setVersionTag } from '../../http/etag.ts';
import { registerEndpoint } from '../../http/register-endpoint.ts';
import type { AppsService } from './apps.service.ts';

/** An answer carrying a client secret must not be kept by any cache. */
function noStore(reply: FastifyReply): void {
  reply.header('Cache-Control', 'no-store');
}

/** spec §7 "Applications". The application's reads send its version as ETag; PUT honours If-Match. */
export function registerAppRoutes(app: FastifyInstance, apps: AppsService): void {
  registerEndpoint(app, appsApi.listApps, async ({ params, query }) => apps.listApps(params.project, query));

  registerEndpoint(app, appsApi.createApp, async ({ body, actor }) => apps.createApp(actor(), body));

  registerEndpoint(app, appsApi.getApp, async ({ params, reply }) => {
    const { value, version } = await apps.getApp(params.application);
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, appsApi.updateApp, async ({ params, body, actor, request, reply }) => {
    const { value, version } = await apps.updateApp(actor(), params.application, body, ifMatchVersion(request));
    setVersionTag(reply, version);
    return value;
  });

  registerEndpoint(app, appsApi.createAppKeys, async ({ params, body, actor, reply }) => {
    noStore(reply);
    return apps.createKeys(actor(), params.application, body.redirectURI);
  });

  registerEndpoint(app, appsApi.getAppKeys, async ({ params }) => apps.getKeys(params.application));

  registerEndpoint(app, appsApi.updateAppKeys, async ({ params, body, actor }) =>
    apps.updateKeys(actor(), params.application, body.redirectURI),
  );

  registerEndpoint(app, appsApi.generateAppKeys, async ({ params, body, actor, reply }) => {
    noStore(reply);
    return apps.generateKeys(actor(), params.application, body.redirectURI);
  });
}
