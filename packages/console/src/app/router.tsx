import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { CenteredLoader } from '../components/centered-loader.tsx';
import { routeTable, type RouteName } from '../lib/routes.ts';
import type { RouteHandle } from './route-handle.ts';
import { SessionGate } from './session/session-gate.tsx';

// The first download holds only what every visit needs: the providers, this table and the session
// entry (which may send the browser straight to the identity provider). The shell around the pages
// loads while the account does (SessionGate starts it), and each page loads when first shown.
export const loadShell = () => import('./layout/shell.ts');
const AppLayout = lazy(() => loadShell().then((m) => ({ default: m.AppLayout })));
const ProjectScope = lazy(() => loadShell().then((m) => ({ default: m.ProjectScope })));
const GuardedPage = lazy(() => loadShell().then((m) => ({ default: m.GuardedPage })));
const ForbiddenMessage = lazy(() => loadShell().then((m) => ({ default: m.ForbiddenMessage })));
const NotFoundMessage = lazy(() => loadShell().then((m) => ({ default: m.NotFoundMessage })));
const PublicLayout = lazy(() => import('./layout/public-layout.tsx').then((m) => ({ default: m.PublicLayout })));

const pages = {
  login: lazy(() => import('../features/session/pages/login-callback-page.tsx')),
  loginError: lazy(() => import('../features/session/pages/login-error-page.tsx')),
  projectList: lazy(() => import('../features/projects/pages/project-list-page.tsx')),
  projectCreate: lazy(() => import('../features/projects/pages/project-create-page.tsx')),
  projectWelcome: lazy(() => import('../features/projects/pages/welcome-page.tsx')),
  projectDisabled: lazy(() => import('../features/projects/pages/disabled-notice-page.tsx')),
  projectDashboard: lazy(() => import('../features/dashboard/pages/dashboard-page.tsx')),
  projectApps: lazy(() => import('../features/apps/pages/apps-page.tsx')),
  appCreate: lazy(() => import('../features/apps/pages/app-create-page.tsx')),
  appSettings: lazy(() => import('../features/apps/pages/app-settings-page.tsx')),
  projectAccounts: lazy(() => import('../features/accounts/pages/accounts-page.tsx')),
  accountCreate: lazy(() => import('../features/accounts/pages/account-create-page.tsx')),
  accountSettings: lazy(() => import('../features/accounts/pages/account-settings-page.tsx')),
  serviceAccountCreate: lazy(() => import('../features/accounts/pages/service-account-create-page.tsx')),
  projectAudit: lazy(() => import('../features/audit/pages/audit-page.tsx')),
  projectDevices: lazy(() => import('../features/devices/pages/devices-page.tsx')),
  projectSettings: lazy(() => import('../features/settings/pages/settings-page.tsx')),
  projectBranding: lazy(() => import('../features/settings/pages/branding-page.tsx')),
  projectUserVerification: lazy(() => import('../features/settings/pages/user-verification-page.tsx')),
  projectOidc: lazy(() => import('../features/settings/pages/oidc-page.tsx')),
  projectMobileApps: lazy(() => import('../features/settings/pages/mobile-apps-page.tsx')),
} satisfies Record<Exclude<RouteName, 'forbidden'>, LazyExoticComponent<ComponentType>>;

type PageName = keyof typeof pages;

/** While a layout's code loads. */
function RootBoundary() {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<CenteredLoader fullScreen label={t('common.loading')} />}>
      <Outlet />
    </Suspense>
  );
}

function handleOf(route: RouteName): RouteHandle {
  return { route, title: routeTable[route].title };
}

/** A route object of the table: path, guard (through GuardedPage) and breadcrumb/title (handle). */
function page(route: PageName): RouteObject {
  const Page = pages[route];
  const def = routeTable[route];
  return {
    path: def.path,
    handle: handleOf(route),
    element:
      def.scope === 'public' ? (
        <Page />
      ) : (
        <GuardedPage route={route}>
          <Page />
        </GuardedPage>
      ),
  };
}

const projectPages: PageName[] = [
  'projectDashboard',
  'projectApps',
  'projectAccounts',
  'projectAudit',
  'projectDevices',
  'projectSettings',
  'projectOidc',
  'projectMobileApps',
  'projectDisabled',
  'projectWelcome',
  'projectUserVerification',
  'projectBranding',
  'appCreate',
  'appSettings',
  'accountSettings',
  'accountCreate',
  'serviceAccountCreate',
];

/** spec §2 "Routes", as react-router route objects. */
export const appRoutes: RouteObject[] = [
  {
    element: <RootBoundary />,
    children: [
  {
    // The sign-in pages: no session entry there (spec §2).
    element: <PublicLayout />,
    children: [page('login'), page('loginError')],
  },
  {
    element: <SessionGate preload={loadShell} />,
    children: [
      {
        element: <AppLayout />,
        children: [
          page('projectList'),
          page('projectCreate'),
          { path: routeTable.forbidden.path, handle: handleOf('forbidden'), element: <ForbiddenMessage /> },
          { element: <ProjectScope />, children: projectPages.map(page) },
          { path: '*', handle: { route: null, title: 'notFound' } satisfies RouteHandle, element: <NotFoundMessage /> },
        ],
      },
    ],
  },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
