import { guards } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { matchRouteName, routes, routeTable } from './routes.ts';

describe('route table (spec §2 "Routes")', () => {
  it.each([
    ['/login', 'login'],
    ['/login/error', 'loginError'],
    ['/forbidden', 'forbidden'],
    ['/', 'projectList'],
    ['/project/create', 'projectCreate'],
    ['/project/p/dashboard', 'projectDashboard'],
    ['/project/p/apps', 'projectApps'],
    ['/project/p/accounts', 'projectAccounts'],
    ['/project/p/audit', 'projectAudit'],
    ['/project/p/devices', 'projectDevices'],
    ['/project/p/settings', 'projectSettings'],
    ['/project/p/oidc', 'projectOidc'],
    ['/project/p/mobileapps', 'projectMobileApps'],
    ['/project/p/disabled', 'projectDisabled'],
    ['/project/p/welcome', 'projectWelcome'],
    ['/project/p/userverification', 'projectUserVerification'],
    ['/project/p/branding', 'projectBranding'],
    ['/project/p/app/create', 'appCreate'],
    ['/project/p/app/a/settings', 'appSettings'],
    ['/project/p/account/u/settings', 'accountSettings'],
    ['/project/p/account/create', 'accountCreate'],
    ['/project/p/serviceaccount/create', 'serviceAccountCreate'],
  ])('%s is the %s route', (path, name) => {
    expect(matchRouteName(path)).toBe(name);
  });

  it('guards pages as spec §6 says', () => {
    expect(routeTable.projectDashboard.guard).toBe(guards.dashboard);
    expect(routeTable.projectApps.guard).toBe(guards.apps);
    expect(routeTable.projectAccounts.guard).toBe(guards.accounts);
    expect(routeTable.projectAudit.guard).toBe(guards.audit);
    expect(routeTable.projectDevices.guard).toBe(guards.devices);
    for (const admin of ['projectSettings', 'projectBranding', 'projectUserVerification', 'projectOidc', 'projectMobileApps'] as const) {
      expect(routeTable[admin].guard).toBe(guards.projectAdmin);
    }
  });

  it('builds links with encoded parameters', () => {
    expect(routes.projectDashboard('p 1')).toBe('/project/p%201/dashboard');
    expect(routes.appSettings('p1', 'a/b')).toBe('/project/p1/app/a%2Fb/settings');
    expect(routes.loginError("consent_required&x=1")).toBe('/login/error?error=consent_required%26x%3D1');
  });
});
