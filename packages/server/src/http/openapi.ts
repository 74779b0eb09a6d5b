import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { API_BASE_PATH, API_ERROR_STATUSES, API_TAGS, errorBodySchema, errorStatusMeaning, type ApiErrorStatus } from '@latchkey/domain';
import { DOCS_PATH } from '../config.ts';
import { SESSION_COOKIE } from './cookies.ts';

const errorResponses = new Map(
  API_ERROR_STATUSES.map((status) => [status, errorBodySchema.meta({ description: errorStatusMeaning[status] })] as const),
);

/**
 * The answer schema of an error status: the one `ErrorBody`, described by what the status means
 * (the response description in the document). Route schemas use it, so error answers are also
 * serialized through the schema the document shows.
 */
export function errorResponseSchema(status: ApiErrorStatus): z.ZodType {
  return errorResponses.get(status) ?? errorBodySchema;
}

type TransformObject = Parameters<typeof jsonSchemaTransformObject>[0];
type Transform = Parameters<typeof jsonSchemaTransform>[0];

const IF_MATCH_DOC = {
  type: 'object',
  properties: {
    'If-Match': {
      type: 'string',
      description: 'The ETag of the version this change is based on (docs/decisions/0007); a stale one answers 412.',
    },
  },
};

const ETAG_DOC = {
  ETag: {
    type: 'string',
    description: 'The version of what the answer holds (docs/decisions/0007): send it back as If-Match with a change based on it.',
  },
};

/**
 * The zod transform, plus the `If-Match` request header on the calls that honour it (those that can
 * answer 412) and the `ETag` header on the success answer of a versioned entry (register-endpoint.ts).
 * Documentation only: the headers are read and set by the endpoint, not validated here.
 */
function transform(document: Transform): ReturnType<typeof jsonSchemaTransform> {
  const result = jsonSchemaTransform(document);
  if (!result.schema) return result;
  const response = result.schema.response as Record<string, Record<string, unknown>> | undefined;
  let schema = result.schema;
  if (response && '412' in response) schema = { ...schema, headers: IF_MATCH_DOC };
  const versioned = document.route.config?.versioned === true;
  const success = response && Object.keys(response).find((status) => status.startsWith('2'));
  if (versioned && response && success) {
    schema = { ...schema, response: { ...response, [success]: { ...response[success], headers: ETAG_DOC } } };
  }
  return { ...result, schema };
}

/**
 * The components zod's registry holds, less those no operation refers to: the registry gives each
 * named schema an input and an output form, and the error body is only ever an output.
 */
function transformObject(document: TransformObject): ReturnType<typeof jsonSchemaTransformObject> {
  const result = jsonSchemaTransformObject(document) as { components?: { schemas?: Record<string, unknown> } };
  const schemas = result.components?.schemas;
  if (schemas) {
    const used = JSON.stringify({ ...result, components: { ...result.components, schemas: {} } }) + JSON.stringify(schemas);
    for (const name of Object.keys(schemas)) {
      if (!used.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
    }
  }
  return result as ReturnType<typeof jsonSchemaTransformObject>;
}

/**
 * The OpenAPI document is generated from the same zod schemas that validate the requests
 * (GET /api/openapi.json); the Swagger UI at /api/docs is served from this machine. Each contract
 * entry gives its operationId, security and error answers (see register-endpoint.ts).
 */
export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Latchkey management API',
        description:
          'The calls the Latchkey console makes (spec §7). Sign in through the console for a session cookie; ' +
          'unsafe methods also need the X-XSRF-TOKEN header echoing the XSRF-TOKEN cookie. A service account ' +
          'sends `Authorization: Bearer <token>` instead. Every error answers an `ErrorBody` with a stable code.',
        version: '1.0.0',
        // The same as package.json's "license": UNLICENSED (no licence is granted yet). A licence is the
        // owners' decision, not one a linter should make; change both together when it is taken.
        license: { name: 'Proprietary: no licence granted (UNLICENSED)', identifier: 'LicenseRef-UNLICENSED' },
      },
      servers: [{ url: publicUrl, description: 'This server (PUBLIC_URL)' }],
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform,
    transformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PATH });
  app.get(`${API_BASE_PATH}/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
}
