import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import { API_BASE_PATH, DomainError, errorStatusesOf, guards, hasAnyPermission, isCleanText, operationIdOf, type Endpoint } from '@latchkey/domain';
import { notFound, signInToContinue } from '../errors.ts';
import type { Actor } from './actor.ts';
import type { RequestAuthenticator } from './auth.ts';
import { ifMatchVersion, sendVersioned, type Versioned } from './etag.ts';
import { errorResponseSchema } from './openapi.ts';

/** What the guard needs from the rest of the app; decorated on the root instance by buildApp. */
export interface EndpointGuard {
  authenticate: RequestAuthenticator;
  projectExists(projectId: string): Promise<boolean>;
  /** The project an application belongs to, or null when there is no such application. */
  projectOfApplication(applicationId: string): Promise<string | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    endpointGuard: EndpointGuard;
  }
  interface FastifyContextConfig {
    /** The route answers its value's version as the ETag (a `versioned` contract entry). */
    versioned?: boolean;
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
  /** The version the request's If-Match names (null: no precondition), for a `versioned` entry's write. */
  ifMatch: number | null;
  /** A `consumes` entry's body: the file as it arrives (its media type is one of the entry's), and its Content-Length when sent. */
  upload(): { type: string; stream: Readable; length: number | null };
}

/** A `consumes` entry's body in the OpenAPI document: the file, as text. */
const fileBodySchema = z.any().meta({ description: 'The file (JSON Lines or CSV), sent as the body' });

const mediaTypeOf = (request: FastifyRequest) => (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** A file body's media types are handed over as the request stream, unread (no body limit: it is read as it comes). */
function acceptFiles(app: FastifyInstance, types: readonly string[]): void {
  for (const type of types) {
    if (!app.hasContentTypeParser(type)) app.addContentTypeParser(type, (_request, payload, done) => done(null, payload));
  }
}

function uploadOf(request: FastifyRequest, types: readonly string[]): { type: string; stream: Readable; length: number | null } {
  const type = mediaTypeOf(request);
  if (!types.includes(type) || !(request.body instanceof Readable)) {
    throw Object.assign(new Error(`The body is a file: Content-Type ${types.join(' or ')}`), { statusCode: 415 });
  }
  const length = Number(request.headers['content-length']);
  return { type, stream: request.body, length: Number.isSafeInteger(length) && length >= 0 ? length : null };
}

/** The answer of an entry that `produces` a file: its media type, the name to save it as, and its body, streamed. */
export interface FileAnswer {
  contentType: string;
  filename: string;
  body: Readable;
}

export type EndpointHandler<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> = (
  ctx: EndpointContext<z.output<P>, z.output<Q>, z.output<B>>,
) => Promise<z.output<R> | Versioned<z.output<R>> | FileAnswer>;

type ProjectSource = NonNullable<Endpoint['projectFrom']>;

/**
 * The current project named by the path, by the contract entry's `projectFrom`: a string; null when
 * the path names an application that does not exist; undefined when the call is about no project
 * at all (e.g. POST /projects). A project named in the body is read by the body hooks below.
 */
async function projectFromPath(
  guard: EndpointGuard,
  source: Exclude<ProjectSource, 'body.projectId'>,
  params: unknown,
): Promise<string | null | undefined> {
  if (source === 'params.project') return stringField(params, 'project');
  const application = stringField(params, 'application');
  return application === undefined ? undefined : guard.projectOfApplication(application);
}

function stringField(value: unknown, name: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field = (value as Record<string, unknown>)[name];
  return typeof field === 'string' ? field : undefined;
}

/**
 * The permission guard of a contract entry (spec §6, docs/decisions/0004). About a project the
 * caller holds nothing on — or that does not exist, or an application in such a project, or one
 * that does not exist — the answer is 404, so ids do not leak; some permission on the project but
 * not the one needed is 403.
 */
async function checkPermission(guard: EndpointGuard, endpoint: Endpoint, actor: Actor, project: string | null | undefined): Promise<void> {
  if (!endpoint.permission) return;
  if (project === null) throw notFound();
  if (project !== undefined) {
    if (!hasAnyPermission(actor.permissions, guards.projectMember, project)) throw notFound();
    // An application's project exists (foreign key); a project named by the caller may not.
    if (endpoint.projectFrom !== 'params.application' && !(await guard.projectExists(project))) throw notFound();
  }
  if (!hasAnyPermission(actor.permissions, endpoint.permission, project ?? null)) {
    throw new DomainError('forbidden', 'You do not have the permission for this');
  }
}

/**
 * Registers one call of spec §7 from its contract entry: method and path under /api, zod schemas
 * for validation, response and the OpenAPI document, then authentication (401), XSRF (403) and
 * the permission guard (404/403). A project named in the path is checked before the body is even
 * parsed; one named in the body (`projectFrom: 'body.projectId'`) as soon as the body is parsed,
 * before it is validated — an outsider learns nothing from the validation answer either.
 */
export function registerEndpoint<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType>(
  app: FastifyInstance,
  endpoint: Endpoint<P, Q, B, R>,
  handler: EndpointHandler<P, Q, B, R>,
): void {
  const status = endpoint.status ?? 200;
  const source: ProjectSource = endpoint.projectFrom ?? 'params.project';
  const fromBody = source === 'body.projectId';
  // The body's project the guard has passed, per request; re-checked after validation if it changed.
  const guardedBodyProject = new WeakMap<FastifyRequest, string>();
  const operationId = operationIdOf(endpoint);
  if (!operationId) throw new Error(`${endpoint.method} ${endpoint.path} is not an entry of the contract`);
  const schema: FastifySchema & { operationId: string; summary: string; tags: string[]; security: Array<Record<string, string[]>> } = {
    operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    // A public call says so (an empty list), rather than leaving clients to guess.
    security: endpoint.auth === 'session' ? [{ session: [] }, { bearer: [] }] : [],
    ...(endpoint.params ? { params: endpoint.params } : {}),
    ...(endpoint.query ? { querystring: endpoint.query } : {}),
    ...(endpoint.body ? { body: endpoint.body } : {}),
    // A file body is documented under each of its media types (the OpenAPI document); it is the
    // request stream, handed over unread, so its schema checks nothing.
    ...(endpoint.consumes ? { body: fileBodySchema, consumes: [...endpoint.consumes] } : {}),
    // The error answers derived from the entry, each an ErrorBody: documented, and serialized through it.
    response: {
      // A file answer (an export) is documented under each of its media types; it is streamed, never serialized.
      [status]: endpoint.produces
        ? { description: endpoint.summary, content: Object.fromEntries(endpoint.produces.map((type) => [type, { schema: endpoint.response }])) }
        : endpoint.response,
      ...Object.fromEntries(errorStatusesOf(endpoint).map((s) => [s, errorResponseSchema(s)])),
    },
  };
  if (endpoint.consumes) acceptFiles(app, endpoint.consumes);
  const route: RouteOptions = {
    method: endpoint.method,
    url: `${API_BASE_PATH}${endpoint.path}`,
    schema,
    // Read by the OpenAPI document (openapi.ts): the answer carries the ETag header.
    config: { versioned: endpoint.versioned === true },
    onRequest: async (request, reply) => {
      if (endpoint.auth !== 'session') return;
      const guard = app.endpointGuard;
      const actor = await guard.authenticate(request, reply);
      if (!actor) throw signInToContinue();
      request.actor = actor;
      if (source !== 'body.projectId') await checkPermission(guard, endpoint, actor, await projectFromPath(guard, source, request.params));
    },
    ...(fromBody && endpoint.auth === 'session'
      ? {
          preValidation: async (request: FastifyRequest) => {
            const project = stringField(request.body, 'projectId');
            // Without a (clean) project id in the body, validation answers 400 (the schema requires one).
            if (!project || !isCleanText(project) || !request.actor) return;
            await checkPermission(app.endpointGuard, endpoint, request.actor, project);
            guardedBodyProject.set(request, project);
          },
          preHandler: async (request: FastifyRequest) => {
            const project = stringField(request.body, 'projectId');
            if (!request.actor) throw signInToContinue();
            if (project === undefined || guardedBodyProject.get(request) !== project) {
              await checkPermission(app.endpointGuard, endpoint, request.actor, project ?? null);
            }
          },
        }
      : {}),
    handler: async (request, reply) => {
      const call = handler({
        params: request.params as z.output<P>,
        query: request.query as z.output<Q>,
        body: request.body as z.output<B>,
        request,
        reply,
        actor: () => {
          if (!request.actor) throw signInToContinue();
          return request.actor;
        },
        ifMatch: endpoint.versioned ? ifMatchVersion(request) : null,
        upload: () => uploadOf(request, endpoint.consumes ?? []),
      });
      // A file refused before its end (too large, a bad header): the connection closes after the
      // answer rather than reading the rest of it.
      const result = await call.catch((error: unknown) => {
        if (endpoint.consumes && !request.raw.complete) reply.header('Connection', 'close');
        throw error;
      });
      reply.status(status);
      if (endpoint.versioned) return sendVersioned(reply, result as Versioned<z.output<R>>);
      if (!endpoint.produces) return result;
      // A file: streamed as it is read (Fastify pipes a stream, the response schema does not serialize it).
      const file = result as FileAnswer;
      if (!(file.body instanceof Readable)) throw new Error(`${endpoint.method} ${endpoint.path} produces a file but answered none`);
      reply.header('Content-Type', file.contentType);
      reply.header('Content-Disposition', `attachment; filename="${file.filename.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
      return reply.send(file.body);
    },
  };
  app.route(route);
}
