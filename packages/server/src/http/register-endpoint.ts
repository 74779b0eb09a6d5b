import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import type { z } from 'zod';
import { DomainError, guards, hasAnyPermission, type Endpoint } from '@latchkey/domain';
import type { Actor } from '../modules/accounts/actor.ts';
import type { RequestAuthenticator } from './auth.ts';

/** What the guard needs from the rest of the app; decorated on the root instance by buildApp. */
export interface EndpointGuard {
  authenticate: RequestAuthenticator;
  projectExists(projectId: string): Promise<boolean>;
}

declare module 'fastify' {
  interface FastifyInstance {
    endpointGuard: EndpointGuard;
  }
  interface FastifyRequest {
    /** The caller, set by the guard on `auth: 'session'` endpoints. */
    actor: Actor | null;
  }
}

export interface EndpointContext<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The signed-in caller; always present on `auth: 'session'` endpoints. */
  actor(): Actor;
}

export type EndpointHandler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = (
  ctx: EndpointContext<z.output<P>, z.output<Q>, z.output<B>>,
) => Promise<z.output<R>>;

const notFound = () => new DomainError('not_found', 'Not found');

/**
 * The permission guard of a contract entry (spec §6, docs/decisions/0004). About a project the
 * caller holds nothing on — or that does not exist — the answer is 404, so ids do not leak; some
 * permission but not the one needed is 403.
 */
async function checkPermission(guard: EndpointGuard, endpoint: Endpoint, actor: Actor, params: unknown): Promise<void> {
  if (!endpoint.permission) return;
  const project = typeof params === 'object' && params !== null ? (params as Record<string, unknown>).project : undefined;
  if (typeof project === 'string') {
    if (!hasAnyPermission(actor.permissions, guards.projectMember, project)) throw notFound();
    if (!(await guard.projectExists(project))) throw notFound();
  }
  if (!hasAnyPermission(actor.permissions, endpoint.permission, typeof project === 'string' ? project : null)) {
    throw new DomainError('forbidden', 'You do not have the permission for this');
  }
}

/**
 * Registers one call of spec §7 from its contract entry: method and path under /api, zod schemas
 * for validation, response and the OpenAPI document, then authentication (401), XSRF (403) and
 * the permission guard (404/403) before the body is even parsed.
 */
export function registerEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: EndpointHandler<P, Q, B, R>,
): void {
  const status = endpoint.status ?? 200;
  const schema: FastifySchema & { summary: string; tags: string[]; security?: Array<Record<string, string[]>> } = {
    summary: endpoint.summary,
    tags: [endpoint.tag],
    ...(endpoint.auth === 'session' ? { security: [{ session: [] }, { bearer: [] }] } : {}),
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    response: { [status]: endpoint.response },
  };
  const route: RouteOptions = {
    method: endpoint.method,
    url: `/api${endpoint.path}`,
    schema,
    onRequest: async (request, reply) => {
      if (endpoint.auth !== 'session') return;
      const guard = app.endpointGuard;
      const actor = await guard.authenticate(request, reply);
      if (!actor) throw new DomainError('unauthorized', 'Sign in to continue');
      request.actor = actor;
      await checkPermission(guard, endpoint, actor, request.params);
    },
    handler: async (request, reply) => {
      const result = await handler({
        params: request.params as z.output<P>,
        query: request.query as z.output<Q>,
        body: request.body as z.output<B>,
        request,
        reply,
        actor: () => {
          if (!request.actor) throw new DomainError('unauthorized', 'Sign in to continue');
          return request.actor;
        },
      });
      reply.status(status);
      return result;
    },
  };
  app.route(route);
}
