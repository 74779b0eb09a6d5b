import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { api, type Endpoint } from '@latchkey/domain';
import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { SecretBox } from '../crypto.ts';
import type { Db } from '../db/db.ts';
import type { CookieOptions } from '../http/cookies.ts';
import { bindEndpoints, type BoundEndpoint, type EndpointBindings, type EndpointGroup } from '../http/endpoints.ts';
import type { OutgoingClient } from '../http/outgoing.ts';
import type { SignInProvider } from '../idp/console-issuer.ts';
import type { IssuerHosts } from '../issuer/custom-domains.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { AuditHook } from './audit/audit.service.ts';

/** Where the modules are: each folder `<m>` here has its `<m>.module.ts`. */
export const MODULES_DIR = import.meta.dirname;

/** What buildApp hands every module to build its services from: the same object for all. */
export interface ModuleContext {
  config: Config;
  db: Db;
  /** The read replica for reads that may be a few seconds stale (docs/decisions/0035); `db` without one. */
  readDb: Db;
  clock: Clock;
  mailer: Mailer;
  audit: AuditHook;
  secretBox: SecretBox;
  /** The guarded client for calls out to addresses projects registered (http/outgoing.ts). */
  outgoing: OutgoingClient;
  /** Is this host one the server may not call (OUTGOING_ALLOWED_NETWORKS)? For addresses checked as they are saved. */
  refusedHost(host: string): boolean;
  cookies: CookieOptions;
  /** The OpenID provider the console signs in through (external, or the built-in one). */
  signIn: SignInProvider;
  /** A project's issuer address: its custom domain's origin (docs/decisions/0016), else its own host's (0047), else under PUBLIC_URL. */
  issuerAddress(projectId: string, hosts: IssuerHosts): string;
  /** docs/decisions/0047: the own host a project's issuer would get ({project}.{ISSUER_DOMAIN}), or null (none configured). */
  ownHostOf(projectId: string): string | null;
  /** Back-channel logout notices were queued: send them now rather than at the next poll. */
  logoutNoticesQueued(): void;
  /** A webhook message was queued: deliver it now rather than at the next poll. */
  webhookQueued(): void;
  /** A user import's file was stored (docs/decisions/0052): this instance's import worker takes it now rather than at its next poll. */
  userImportQueued(): void;
  /** Where a failure that does not fail the call is reported (the app's log). */
  warn(error: unknown, message: string): void;
}

/**
 * A resource of the management API (README "Add a resource"): its services, built from the shared
 * context, and its contract group's endpoints bound to them. buildApp finds every module by its
 * folder (loadApiModules), so a new one needs no line in app.ts.
 */
export interface ApiModule<S = unknown> {
  /** The contract group whose every entry the module serves. */
  group: EndpointGroup;
  services(ctx: ModuleContext): S;
  endpoints(services: S, ctx: ModuleContext): BoundEndpoint[];
}

/**
 * A module from its contract group, how its services are made, and its endpoints: one handler per
 * entry of the group (EndpointBindings: exhaustive by its type), each one service call.
 */
export function apiModule<G extends EndpointGroup, S, B extends EndpointBindings<G>>(
  group: G,
  module: {
    services(ctx: ModuleContext): S;
    // A handler for a name the group does not have is refused too (it would never be served).
    endpoints(services: S, ctx: ModuleContext): B & { readonly [K in Exclude<keyof B, keyof G>]: never };
  },
): ApiModule<S> {
  return {
    group,
    services: (ctx) => module.services(ctx),
    endpoints: (services, ctx) => bindEndpoints(group, module.endpoints(services, ctx)),
  };
}

function isApiModule(value: unknown): value is ApiModule {
  if (typeof value !== 'object' || value === null) return false;
  const { group, services, endpoints } = value as Record<string, unknown>;
  return typeof group === 'object' && group !== null && typeof services === 'function' && typeof endpoints === 'function';
}

/** Every module of `dir`, by folder name: `<m>/<m>.module.ts`'s default export. A folder without one is a mistake, said at start-up. */
export async function loadApiModules(dir: string = MODULES_DIR): Promise<Map<string, ApiModule>> {
  const folders = (await readdir(dir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const modules = new Map<string, ApiModule>();
  for (const folder of folders) {
    const file = join(dir, folder, `${folder}.module.ts`);
    let loaded: { default?: unknown };
    try {
      loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
    } catch (error) {
      throw new Error(`modules/${folder} has no module: ${folder}.module.ts (README "Add a resource")`, { cause: error });
    }
    if (!isApiModule(loaded.default)) throw new Error(`modules/${folder}/${folder}.module.ts does not export an apiModule(...) as its default`);
    modules.set(folder, loaded.default);
  }
  return modules;
}

/**
 * Registers the modules' endpoints in the contract's order (`api`), so the routes and the OpenAPI
 * document do not depend on the order the folders are read in. Every contract entry is served by
 * exactly one module, or the app does not start.
 */
export function registerApiEndpoints(app: FastifyInstance, bound: BoundEndpoint[]): void {
  const order = new Map(Object.entries(api).map(([name, endpoint], index) => [endpoint as Endpoint, { name, index }]));
  const served = new Map<Endpoint, BoundEndpoint>();
  for (const b of bound) {
    const entry = order.get(b.endpoint);
    if (!entry) throw new Error(`${b.endpoint.method} ${b.endpoint.path} is bound by a module but is not an entry of the contract`);
    if (served.has(b.endpoint)) throw new Error(`${entry.name} is bound by two modules`);
    served.set(b.endpoint, b);
  }
  const unserved = [...order].filter(([endpoint]) => !served.has(endpoint)).map(([, { name }]) => name);
  if (unserved.length > 0) throw new Error(`No module serves ${unserved.join(', ')}: add the group's module (README "Add a resource")`);
  for (const endpoint of order.keys()) served.get(endpoint)?.register(app);
}
