import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, appsApi, guards, hasAnyPermission, PROJECT_SCOPES, projectPermission, searchApi, usageApi, type Endpoint } from '@latchkey/domain';
import { bindEndpoints, type EndpointBindings } from '../src/http/endpoints.ts';
import { apiModule, loadApiModules, MODULES_DIR, registerApiEndpoints } from '../src/modules/api-module.ts';
import { anonymous, signedInAccount, useTestApp, type SignedIn } from './support/app.ts';
import { describeWithDatabase } from './support/databases.ts';
import { apiPath, createApp, createProject } from './support/fixtures.ts';

const entries = Object.entries(api) as Array<[keyof typeof api, Endpoint]>;

/** Does the entry's guard look at a project (its path's project or application, or its body's projectId)? */
function aboutAProject(e: Endpoint): boolean {
  return e.projectFrom === 'body.projectId' || /:(project|application)\b/.test(e.path);
}

/**
 * The route table is the contract (README "Add a resource"): each entry of every group is served
 * by the module of its folder, at its method and path, behind the guard the entry declares. No
 * list of routes here: a new entry is walked as soon as it is in the contract.
 */
describeWithDatabase('every contract entry is served, behind its declared guard', (t) => {
  const app = useTestApp(t);
  let project: string;
  let application: string;
  let outsider: SignedIn;
  const members = new Map<string, SignedIn>();

  /** A signed-in member of the project holding only `permission`, one per permission. */
  async function memberHolding(permission: string): Promise<SignedIn> {
    const known = members.get(permission);
    if (known) return known;
    const member = await signedInAccount(app, t.db, [permission]);
    members.set(permission, member);
    return member;
  }

  beforeAll(async () => {
    const owner = await signedInAccount(app, t.db);
    project = await createProject(owner);
    application = await createApp(owner, project);
    // Signed in, holding nothing anywhere.
    outsider = await signedInAccount(app, t.db);
  });

  /** The entry's path, its project and application the real ones, any other id one that does not exist. */
  function pathOf(e: Endpoint): string {
    const names = [...e.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
    return apiPath(
      e,
      Object.fromEntries(names.map((name) => [name, name === 'project' ? project : name === 'application' ? application : `no-such-${name}`])),
    );
  }

  function send(by: { api: SignedIn['api'] }, e: Endpoint) {
    // An empty body: every guard answers before the body is validated (a project in the body is read first).
    const body = e.method === 'GET' ? undefined : e.projectFrom === 'body.projectId' ? { projectId: project } : {};
    return by.api.call(e.method, pathOf(e), body);
  }

  it.each(entries)('%s', async (name, e) => {
    expect(app.app.hasRoute({ method: e.method, url: `/api${e.path}` }), `${e.method} ${e.path} is routed`).toBe(true);
    if (e.auth === 'public') {
      const res = await send({ api: anonymous(app) }, e);
      expect(res.status, JSON.stringify(res.body)).not.toBe(404);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      return;
    }
    expect((await send({ api: anonymous(app) }, e)).status, 'without a session').toBe(401);
    const byOutsider = await send(outsider, e);
    if (!e.permission) {
      // No permission of its own: a signed-in account gets past the guard (to its validation, or an answer).
      expect(byOutsider.status, JSON.stringify(byOutsider.body)).not.toBe(401);
      expect(byOutsider.status, JSON.stringify(byOutsider.body)).toBeLessThan(500);
      return;
    }
    if (!aboutAProject(e)) {
      expect(byOutsider.status, 'an account without the permission').toBe(403);
      expect(byOutsider.body).toMatchObject({ error: 'forbidden' });
      return;
    }
    // spec §6, docs/decisions/0004: nothing held on the project is 404, so ids do not leak…
    expect(byOutsider.status, 'an account holding nothing on the project').toBe(404);
    // …some permission on it, but none the entry asks for, is 403.
    const other = PROJECT_SCOPES.map((scope) => projectPermission(project, scope)).find(
      (held) => !hasAnyPermission([held], e.permission ?? [], project) && hasAnyPermission([held], guards.projectMember, project),
    );
    // Only a guard any permission on the project passes has no such member.
    if (!other) expect(e.permission).toBe(guards.projectMember);
    else {
      const byMember = await send(await memberHolding(other), e);
      expect(byMember.status, `a member holding only ${other} (${name})`).toBe(403);
      expect(byMember.body).toMatchObject({ error: 'forbidden' });
    }
  });
});

describe('the modules, found by convention', () => {
  it('finds a module in every folder of modules/, and together they serve every contract entry once', async () => {
    const modules = await loadApiModules();
    expect([...modules.keys()]).toEqual(
      (await readdir(MODULES_DIR, { withFileTypes: true }))
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .sort(),
    );
    const served = [...modules.values()].flatMap((m) => Object.values(m.group));
    expect(served).toHaveLength(entries.length);
    expect(new Set(served)).toEqual(new Set(Object.values(api)));
  });

  it('refuses to start with a folder that has no module, or a module that is not one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'latchkey-modules-'));
    try {
      await mkdir(join(dir, 'things'));
      await expect(loadApiModules(dir)).rejects.toThrow('modules/things has no module: things.module.ts');
      await writeFile(join(dir, 'things', 'things.module.ts'), 'export default { services: 1 };\n');
      await expect(loadApiModules(dir)).rejects.toThrow('does not export an apiModule(...) as its default');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(MODULES_DIR.endsWith(join('src', 'modules'))).toBe(true);
  });

  it('refuses to register a contract with an entry no module serves, or one served twice', () => {
    const handlers = { search: async () => ({ results: [] }) } as unknown as EndpointBindings<typeof searchApi>;
    const search = bindEndpoints(searchApi, handlers);
    expect(() => registerApiEndpoints(Fastify(), search)).toThrow(/^No module serves getAuthUrl, login, /);
    const all = entries.map(([, endpoint]) => ({ endpoint, register: () => undefined }));
    expect(() => registerApiEndpoints(Fastify(), [...all, ...search])).toThrow('search is bound by two modules');
  });

  it('registers in the contract’s order, whatever order the modules come in', () => {
    const order: string[] = [];
    const bound = [...entries].reverse().map(([name, endpoint]) => ({ endpoint, register: () => void order.push(name) }));
    registerApiEndpoints(Fastify(), bound);
    expect(order).toEqual(entries.map(([name]) => name));
  });
});

// Checked by the type checker (npm run typecheck), never run: the bindings are exhaustive and typed.
export const typeChecks = [
  // @ts-expect-error getGlobalUsage is not bound
  apiModule(usageApi, { services: () => null, endpoints: () => ({ getUsage: async () => ({ periods: [] }) as never }) }),
  apiModule(searchApi, {
    services: () => null,
    endpoints: () => ({
      search: async () => ({ results: [] }) as never,
      // @ts-expect-error searchApi has no entry of this name
      searchEverything: async () => ({}),
    }),
  }),
  apiModule(appsApi, {
    services: () => null,
    endpoints: () => ({
      listApps: async () => ({ list: [], total: 0 }) as never,
      createApp: async () => ({}) as never,
      // @ts-expect-error getApp's path names an application, not a project
      getApp: async ({ params }) => ({ id: params.project }) as never,
      updateApp: async () => ({}) as never,
      createAppKeys: async () => ({}) as never,
      getAppKeys: async () => ({}) as never,
      updateAppKeys: async () => ({}) as never,
      // @ts-expect-error a handler answers its entry's response shape
      generateAppKeys: async () => ({ value: 'not keys', version: 'one' }),
    }),
  }),
];
