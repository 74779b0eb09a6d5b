import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { Endpoint } from '@latchkey/domain';
import { registerEndpoint, type EndpointHandler } from './register-endpoint.ts';

/** A group of the contract (`endUsersApi`, `appsApi`…): its entries by name. */
export type EndpointGroup = Readonly<Record<string, Endpoint>>;

/** The handler registerEndpoint takes for one contract entry: its params, query, body and answer typed by the entry. */
export type HandlerOf<E> =
  E extends Endpoint<infer P extends z.ZodType, infer Q extends z.ZodType, infer B extends z.ZodType, infer R extends z.ZodType>
    ? EndpointHandler<P, Q, B, R>
    : never;

/**
 * A module's endpoints: one handler for every entry of its contract group, keyed by the entry's
 * name. Exhaustive by its type: an entry left out, one the group does not have, or a handler of
 * the wrong shape does not compile.
 */
export type EndpointBindings<G extends EndpointGroup> = { readonly [K in keyof G]: HandlerOf<G[K]> };

/** One contract entry with its handler, ready to be registered (the composition root chooses when). */
export interface BoundEndpoint {
  endpoint: Endpoint;
  register(app: FastifyInstance): void;
}

/** Each entry of `group` with the handler `bindings` gives it. */
export function bindEndpoints<G extends EndpointGroup>(group: G, bindings: NoInfer<EndpointBindings<G>>): BoundEndpoint[] {
  return Object.keys(group).map((name) => {
    const endpoint = group[name] as Endpoint;
    // The mapped type pairs each entry with its handler; TypeScript cannot follow that pairing through a key read at run time.
    const handler = bindings[name] as EndpointHandler<z.ZodType, z.ZodType, z.ZodType, z.ZodType>;
    return { endpoint, register: (app) => registerEndpoint(app, endpoint, handler) };
  });
}
