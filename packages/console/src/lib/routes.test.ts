import { guards } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { matchRouteName, routeNames, routes, routeTable, type RouteName } from './routes.ts';

// spec §2 "Routes", written out as the spec has it (`{x}` parameters). Not derived from the table:
// a route missing from the table, a route the spec does not have, or a path that changed fails here.
const SPEC_ROUTES = [
  '/login',
  '/login/error',
  '/forbidden',
  '/',
  '/project/create',
  '/project/{project}/dashboard',
  '/project/{project}/apps',
  '/project/{project}/accounts',
  '/project/{project}/audit',
  '/project/{project}/devices',
  '/project/{project}/settings',
  '/project/{project}/oidc',
  '/project/{project}/mobileapps',
  '/project/{project}/disabled',
  '/project/{project}/welcome',
  '/project/{project}/userverification',
  '/project/{project}/branding',
  '/project/{project}/app/create',
  '/project/{project}/app/{application}/settings',
  '/project/{project}/account/{account}/settings',
  '/project/{project}/account/create',
  '/project/{project}/serviceaccount/create',
];

// Routes beyond the spec, each with the issue that asks for it: the dashboard over every project,
// whose path the spec leaves open (issue 10, docs/decisions/0020); the project's end users and one
// of them (issue 24, docs/decisions/0038); the project's webhook endpoints and one of them (issue 24,
// docs/decisions/0039).
const BEYOND_SPEC_ROUTES = [
  '/usage',
  '/project/{project}/users',
  '/project/{project}/user/{user}',
  '/project/{project}/webhooks',
  '/project/{project}/webhook/{webhook}',
];

// The names spec §2 gives (the others are the table's own).
const SPEC_NAMES: Record<string, RouteName> = {
  '/login': 'login',
  '/login/error': 'loginError',
  '/': 'projectList',
  '/project/create': 'projectCreate',
  '/project/{project}/dashboard': 'projectDashboard',
  '/project/{project}/app/create': 'appCreate',
};

const toSpecPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
/** An address of the spec path, with a sample value per parameter. */
const sampleOf = (specPath: string) => specPath.replace(/\{([A-Za-z0-9_]+)\}/g, 'x-$1');

describe('route table (spec §2 "Routes")', () => {
  it('has exactly the routes of the spec, no more and no fewer', () => {
    const tablePaths = routeNames.map((name) => toSpecPath(routeTable[name].path));
    expect([...tablePaths].sort()).toEqual([...SPEC_ROUTES, ...BEYOND_SPEC_ROUTES].sort());
  });

  it.each(SPEC_ROUTES)('%s is matched by its own route', (specPath) => {
    const name = matchRouteName(sampleOf(specPath));
    expect(name).not.toBeNull();
    expect(toSpecPath(routeTable[name as RouteName].path)).toBe(specPath);
    if (SPEC_NAMES[specPath]) expect(name).toBe(SPEC_NAMES[specPath]);
  });

  it('matches no other address', () => {
    for (const path of ['/project', '/project/p', '/project/p/apps/x', '/login/other', '/project/p/app/a/b/settings']) {
      expect(matchRouteName(path)).toBeNull();
    }
  });

  it('guards pages as spec §6 says', () => {
    expect(routeTable.projectDashboard.guard).toBe(guards.dashboard);
    expect(routeTable.projectApps.guard).toBe(guards.apps);
    expect(routeTable.appCreate.guard).toBe(guards.apps);
    expect(routeTable.appSettings.guard).toBe(guards.apps);
    expect(routeTable.projectAccounts.guard).toBe(guards.accounts);
    expect(routeTable.projectAudit.guard).toBe(guards.audit);
    expect(routeTable.projectDevices.guard).toBe(guards.devices);
    for (const admin of ['projectSettings', 'projectBranding', 'projectUserVerification', 'projectOidc', 'projectMobileApps'] as const) {
      expect(routeTable[admin].guard).toBe(guards.projectAdmin);
    }
    for (const name of routeNames.filter((n) => routeTable[n].scope === 'project')) {
      expect(routeTable[name].guard, name).not.toBeNull();
    }
  });

  it('keeps every breadcrumb parent in the same scope', () => {
    for (const name of routeNames) {
      const parent = routeTable[name].parent;
      if (parent) expect(routeTable[parent].scope, name).toBe(routeTable[name].scope);
    }
  });

  it('gives every route a page file that exists, and every page file a route', async () => {
    const pageFiles = Object.keys(import.meta.glob('../features/*/pages/*-page.tsx'));
    const tablePages = routeNames.map((name) => routeTable[name].page);
    expect([...new Set(tablePages)].sort()).toEqual(pageFiles.sort());
  });

  it('builds links with encoded parameters', () => {
    expect(routes.projectDashboard('p 1')).toBe('/project/p%201/dashboard');
    expect(routes.appSettings('p1', 'a/b')).toBe('/project/p1/app/a%2Fb/settings');
    expect(routes.projectList()).toBe('/');
    expect(routes.loginError({ error: 'consent_required&x=1' })).toBe('/login/error?error=consent_required%26x%3D1');
  });
});
