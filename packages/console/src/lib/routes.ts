import { buildPath, guards } from '@latchkey/domain';
import { matchPath } from 'react-router';
import type { Catalogue } from './i18n/en.ts';

export type PageTitleKey = keyof Catalogue['pages'];

export interface RouteDef {
  /** Path pattern, react-router syntax (`:name` parameters). */
  path: string;
  /** spec §6 page guard (passing any one entry passes); null: any signed-in account. */
  guard: readonly string[] | null;
  /** The page title under `pages.` in the catalogue: h1, breadcrumb and document title. */
  title: PageTitleKey;
  /** The route this page sits under in the breadcrumbs (the project itself is implied for project routes). */
  parent: string | null;
  /** Where the page lives: outside the session, for a signed-in account, or inside a project. */
  scope: 'public' | 'account' | 'project';
}

// spec §2 "Routes": every route of the console, by name. The router, the breadcrumbs, the document
// title, the guards and the sign-in return target all read this table.
export const routeTable = {
  login: { path: '/login', guard: null, title: 'login', parent: null, scope: 'public' },
  loginError: { path: '/login/error', guard: null, title: 'loginError', parent: null, scope: 'public' },
  forbidden: { path: '/forbidden', guard: null, title: 'forbidden', parent: null, scope: 'account' },
  projectList: { path: '/', guard: null, title: 'projectList', parent: null, scope: 'account' },
  projectCreate: { path: '/project/create', guard: null, title: 'projectCreate', parent: null, scope: 'account' },
  projectDashboard: {
    path: '/project/:project/dashboard',
    guard: guards.dashboard,
    title: 'projectDashboard',
    parent: null,
    scope: 'project',
  },
  projectApps: { path: '/project/:project/apps', guard: guards.apps, title: 'projectApps', parent: null, scope: 'project' },
  projectAccounts: {
    path: '/project/:project/accounts',
    guard: guards.accounts,
    title: 'projectAccounts',
    parent: null,
    scope: 'project',
  },
  projectAudit: { path: '/project/:project/audit', guard: guards.audit, title: 'projectAudit', parent: null, scope: 'project' },
  projectDevices: {
    path: '/project/:project/devices',
    guard: guards.devices,
    title: 'projectDevices',
    parent: null,
    scope: 'project',
  },
  projectSettings: {
    path: '/project/:project/settings',
    guard: guards.projectAdmin,
    title: 'projectSettings',
    parent: null,
    scope: 'project',
  },
  projectOidc: { path: '/project/:project/oidc', guard: guards.projectAdmin, title: 'projectOidc', parent: null, scope: 'project' },
  projectMobileApps: {
    path: '/project/:project/mobileapps',
    guard: guards.projectAdmin,
    title: 'projectMobileApps',
    parent: null,
    scope: 'project',
  },
  projectDisabled: {
    path: '/project/:project/disabled',
    guard: guards.projectMember,
    title: 'projectDisabled',
    parent: null,
    scope: 'project',
  },
  projectWelcome: {
    path: '/project/:project/welcome',
    guard: guards.projectMember,
    title: 'projectWelcome',
    parent: null,
    scope: 'project',
  },
  projectUserVerification: {
    path: '/project/:project/userverification',
    guard: guards.projectAdmin,
    title: 'projectUserVerification',
    parent: null,
    scope: 'project',
  },
  projectBranding: {
    path: '/project/:project/branding',
    guard: guards.projectAdmin,
    title: 'projectBranding',
    parent: null,
    scope: 'project',
  },
  appCreate: { path: '/project/:project/app/create', guard: guards.apps, title: 'appCreate', parent: 'projectApps', scope: 'project' },
  appSettings: {
    path: '/project/:project/app/:application/settings',
    guard: guards.apps,
    title: 'appSettings',
    parent: 'projectApps',
    scope: 'project',
  },
  accountSettings: {
    path: '/project/:project/account/:account/settings',
    guard: guards.accounts,
    title: 'accountSettings',
    parent: 'projectAccounts',
    scope: 'project',
  },
  accountCreate: {
    path: '/project/:project/account/create',
    guard: guards.accounts,
    title: 'accountCreate',
    parent: 'projectAccounts',
    scope: 'project',
  },
  serviceAccountCreate: {
    path: '/project/:project/serviceaccount/create',
    guard: guards.accounts,
    title: 'serviceAccountCreate',
    parent: 'projectAccounts',
    scope: 'project',
  },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routeTable;
export const routeNames = Object.keys(routeTable) as RouteName[];

/** The route a page sits under (the return type checks that every parent is a route name). */
export function parentOf(name: RouteName): RouteName | null {
  return routeTable[name].parent;
}

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;
type RouteParams<N extends RouteName> = Record<ParamNames<(typeof routeTable)[N]['path']>, string>;

/** The address of a named route; parameters are URI-encoded. */
export function href<N extends RouteName>(name: N, ...[params]: ParamNames<(typeof routeTable)[N]['path']> extends never ? [] : [RouteParams<N>]): string {
  return buildPath(routeTable[name].path, params ?? {});
}

/** Typed link builders: pages link through these, never by joining strings. */
export const routes = {
  login: () => href('login'),
  loginError: (error: string) => `${href('loginError')}?${new URLSearchParams({ error }).toString()}`,
  forbidden: () => href('forbidden'),
  projectList: () => href('projectList'),
  projectCreate: () => href('projectCreate'),
  projectDashboard: (project: string) => href('projectDashboard', { project }),
  projectApps: (project: string) => href('projectApps', { project }),
  projectAccounts: (project: string) => href('projectAccounts', { project }),
  projectAudit: (project: string) => href('projectAudit', { project }),
  projectDevices: (project: string) => href('projectDevices', { project }),
  projectSettings: (project: string) => href('projectSettings', { project }),
  projectOidc: (project: string) => href('projectOidc', { project }),
  projectMobileApps: (project: string) => href('projectMobileApps', { project }),
  projectDisabled: (project: string) => href('projectDisabled', { project }),
  projectWelcome: (project: string) => href('projectWelcome', { project }),
  projectUserVerification: (project: string) => href('projectUserVerification', { project }),
  projectBranding: (project: string) => href('projectBranding', { project }),
  appCreate: (project: string) => href('appCreate', { project }),
  appSettings: (project: string, application: string) => href('appSettings', { project, application }),
  accountSettings: (project: string, account: string) => href('accountSettings', { project, account }),
  accountCreate: (project: string) => href('accountCreate', { project }),
  serviceAccountCreate: (project: string) => href('serviceAccountCreate', { project }),
} satisfies Record<RouteName, (...args: string[]) => string>;

/** The named route a pathname is, if any. */
export function matchRouteName(pathname: string): RouteName | null {
  for (const name of routeNames) {
    if (matchPath({ path: routeTable[name].path, end: true }, pathname)) return name;
  }
  return null;
}
