import type { ComponentType } from 'react';
import { buildPath, guards } from '@latchkey/domain';
import { matchPath } from 'react-router';
import type { Catalogue } from './i18n/en.ts';

export type PageTitleKey = keyof Catalogue['pages'];
export type NavLabelKey = keyof Catalogue['nav'];

/** spec §2 "Layout": the side menu's groups, in this order (their labels are `nav.*` keys). */
export const menuGroups = ['overview', 'configuration'] as const satisfies readonly NavLabelKey[];
export type MenuGroup = (typeof menuGroups)[number];

export interface RouteDef {
  /** Path pattern, react-router syntax (`:name` parameters). */
  path: string;
  /**
   * The page module (default export), relative to this file. The router loads it on demand with
   * `import.meta.glob`, so the first download holds only this string.
   */
  page: `../features/${string}/pages/${string}-page.tsx`;
  /** spec §6 page guard (passing any one entry passes); null: any signed-in account. */
  guard: readonly string[] | null;
  /** The page title under `pages.` in the catalogue: h1, breadcrumb and document title. */
  title: PageTitleKey;
  /** The route this page sits under in the breadcrumbs (the project itself is implied for project routes). */
  parent: string | null;
  /** Where the page lives: outside the session, for a signed-in account, or inside a project. */
  scope: 'public' | 'account' | 'project';
  /** Its entry in the project side menu (menu order is table order); its icon is in its feature's menu-icons.ts. */
  menu?: { group: MenuGroup; label: NavLabelKey };
}

// spec §2 "Routes": every page of the console, by name. A page is one entry here plus its page file:
// the router, the side menu, the breadcrumbs, the document title, the guards, the link builders
// (`routes.*`) and the sign-in return target all read this table.
export const routeTable = {
  login: {
    path: '/login',
    page: '../features/session/pages/login-callback-page.tsx',
    guard: null,
    title: 'login',
    parent: null,
    scope: 'public',
  },
  loginError: {
    path: '/login/error',
    page: '../features/session/pages/login-error-page.tsx',
    guard: null,
    title: 'loginError',
    parent: null,
    scope: 'public',
  },
  forbidden: {
    path: '/forbidden',
    page: '../features/errors/pages/forbidden-page.tsx',
    guard: null,
    title: 'forbidden',
    parent: null,
    scope: 'account',
  },
  projectList: {
    path: '/',
    page: '../features/projects/pages/project-list-page.tsx',
    guard: null,
    title: 'projectList',
    parent: null,
    scope: 'account',
  },
  globalUsage: {
    path: '/usage',
    page: '../features/dashboard/pages/global-usage-page.tsx',
    guard: guards.globalUsage,
    title: 'globalUsage',
    parent: null,
    scope: 'account',
  },
  projectCreate: {
    path: '/project/create',
    page: '../features/projects/pages/project-create-page.tsx',
    guard: null,
    title: 'projectCreate',
    parent: null,
    scope: 'account',
  },
  projectDashboard: {
    path: '/project/:project/dashboard',
    page: '../features/dashboard/pages/dashboard-page.tsx',
    guard: guards.dashboard,
    title: 'projectDashboard',
    parent: null,
    scope: 'project',
    menu: { group: 'overview', label: 'dashboard' },
  },
  projectApps: {
    path: '/project/:project/apps',
    page: '../features/apps/pages/apps-page.tsx',
    guard: guards.apps,
    title: 'projectApps',
    parent: null,
    scope: 'project',
    menu: { group: 'overview', label: 'apps' },
  },
  projectUsers: {
    path: '/project/:project/users',
    page: '../features/users/pages/users-page.tsx',
    guard: guards.endUsers,
    title: 'projectUsers',
    parent: null,
    scope: 'project',
    menu: { group: 'overview', label: 'users' },
  },
  projectDevices: {
    path: '/project/:project/devices',
    page: '../features/devices/pages/devices-page.tsx',
    guard: guards.devices,
    title: 'projectDevices',
    parent: null,
    scope: 'project',
    menu: { group: 'overview', label: 'devices' },
  },
  projectAudit: {
    path: '/project/:project/audit',
    page: '../features/audit/pages/audit-page.tsx',
    guard: guards.audit,
    title: 'projectAudit',
    parent: null,
    scope: 'project',
    menu: { group: 'overview', label: 'audit' },
  },
  projectSettings: {
    path: '/project/:project/settings',
    page: '../features/settings/pages/settings-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectSettings',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'settings' },
  },
  projectBranding: {
    path: '/project/:project/branding',
    page: '../features/settings/pages/branding-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectBranding',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'branding' },
  },
  projectUserVerification: {
    path: '/project/:project/userverification',
    page: '../features/settings/pages/user-verification-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectUserVerification',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'userVerification' },
  },
  projectOidc: {
    path: '/project/:project/oidc',
    page: '../features/settings/pages/oidc-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectOidc',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'oidc' },
  },
  projectMobileApps: {
    path: '/project/:project/mobileapps',
    page: '../features/settings/pages/mobile-apps-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectMobileApps',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'mobileApps' },
  },
  projectWebhooks: {
    path: '/project/:project/webhooks',
    page: '../features/webhooks/pages/webhooks-page.tsx',
    guard: guards.projectAdmin,
    title: 'projectWebhooks',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'webhooks' },
  },
  projectAccounts: {
    path: '/project/:project/accounts',
    page: '../features/accounts/pages/accounts-page.tsx',
    guard: guards.accounts,
    title: 'projectAccounts',
    parent: null,
    scope: 'project',
    menu: { group: 'configuration', label: 'accounts' },
  },
  projectDisabled: {
    path: '/project/:project/disabled',
    page: '../features/projects/pages/disabled-notice-page.tsx',
    guard: guards.projectMember,
    title: 'projectDisabled',
    parent: null,
    scope: 'project',
  },
  projectWelcome: {
    path: '/project/:project/welcome',
    page: '../features/projects/pages/welcome-page.tsx',
    guard: guards.projectMember,
    title: 'projectWelcome',
    parent: null,
    scope: 'project',
  },
  appCreate: {
    path: '/project/:project/app/create',
    page: '../features/apps/pages/app-create-page.tsx',
    guard: guards.apps,
    title: 'appCreate',
    parent: 'projectApps',
    scope: 'project',
  },
  appSettings: {
    path: '/project/:project/app/:application/settings',
    page: '../features/apps/pages/app-settings-page.tsx',
    guard: guards.apps,
    title: 'appSettings',
    parent: 'projectApps',
    scope: 'project',
  },
  userDetail: {
    path: '/project/:project/user/:user',
    page: '../features/users/pages/user-page.tsx',
    guard: guards.endUsers,
    title: 'userDetail',
    parent: 'projectUsers',
    scope: 'project',
  },
  webhookDetail: {
    path: '/project/:project/webhook/:webhook',
    page: '../features/webhooks/pages/webhook-page.tsx',
    guard: guards.projectAdmin,
    title: 'webhookDetail',
    parent: 'projectWebhooks',
    scope: 'project',
  },
  accountSettings: {
    path: '/project/:project/account/:account/settings',
    page: '../features/accounts/pages/account-settings-page.tsx',
    guard: guards.accounts,
    title: 'accountSettings',
    parent: 'projectAccounts',
    scope: 'project',
  },
  accountCreate: {
    path: '/project/:project/account/create',
    page: '../features/accounts/pages/account-create-page.tsx',
    guard: guards.accounts,
    title: 'accountCreate',
    parent: 'projectAccounts',
    scope: 'project',
  },
  serviceAccountCreate: {
    path: '/project/:project/serviceaccount/create',
    page: '../features/accounts/pages/service-account-create-page.tsx',
    guard: guards.accounts,
    title: 'serviceAccountCreate',
    parent: 'projectAccounts',
    scope: 'project',
  },
} as const satisfies Record<string, RouteDef>;

export type RouteName = keyof typeof routeTable;
export const routeNames = Object.keys(routeTable) as RouteName[];
/** A route that has an entry in the side menu. */
export type MenuRouteName = { [N in RouteName]: (typeof routeTable)[N] extends { menu: object } ? N : never }[RouteName];

/** The route definition of a name, widened (for code that reads any route's optional fields). */
export function routeOf(name: RouteName): RouteDef {
  return routeTable[name];
}

/** The route a page sits under (the return type checks that every parent is a route name). */
export function parentOf(name: RouteName): RouteName | null {
  return routeTable[name].parent;
}

type PathOf<N extends RouteName> = (typeof routeTable)[N]['path'];
type ParamList<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamList<`/${Rest}`>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];
type AsStrings<T extends readonly unknown[]> = { [K in keyof T]: string };

/** A link builder: the path parameters in path order (URI-encoded), then optional query parameters. */
export type LinkBuilder<P extends string> = (...args: [...AsStrings<ParamList<P>>, query?: Record<string, string>]) => string;

function linkBuilder(path: string): (...args: Array<string | Record<string, string> | undefined>) => string {
  const names = [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] as string);
  return (...args) => {
    const params: Record<string, string> = {};
    names.forEach((name, i) => {
      params[name] = String(args[i]);
    });
    const query = args[names.length];
    const base = buildPath(path, params);
    return query && typeof query === 'object' ? `${base}?${new URLSearchParams(query).toString()}` : base;
  };
}

/**
 * Typed link builders, one per route of the table: `routes.appSettings(project, application)`,
 * `routes.loginError({ error })`. Pages link through these, never by joining strings.
 */
export const routes = Object.fromEntries(routeNames.map((name) => [name, linkBuilder(routeTable[name].path)])) as {
  [N in RouteName]: LinkBuilder<PathOf<N>>;
};

/** The named route a pathname is, if any. */
export function matchRouteName(pathname: string): RouteName | null {
  for (const name of routeNames) {
    if (matchPath({ path: routeTable[name].path, end: true }, pathname)) return name;
  }
  return null;
}

/** A side-menu icon (a Tabler icon component). */
export type MenuIcon = ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;
/** A feature's side-menu icons, by route (features/{feature}/menu-icons.ts, found by app/layout/menu-icons.ts). */
export type MenuIcons = Partial<Record<MenuRouteName, MenuIcon>>;
