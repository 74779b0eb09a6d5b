import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { CenteredLoader } from '../components/centered-loader.tsx';
import { routeTable, type RouteName } from '../lib/routes.ts';
import { accountQuery } from '../lib/session.ts';
import { RouteError } from './route-error.tsx';
import type { RouteHandle } from './route-handle.ts';
import { SessionGate } from './session/session-gate.tsx';

// The first download holds only what every visit needs: the providers, this table and the session
// entry (which may send the browser straight to the identity provider). Everything else is loaded by
// the router (route `lazy`): the signed-in shell and the page of the address, in parallel with each
// other and with the account, before the first render — no waterfall of suspending components.
const loadShell = () => import('./layout/shell.ts');

type PageName = Exclude<RouteName, 'forbidden'>;

const pages: Record<PageName, () => Promise<{ default: ComponentType }>> = {
  login: () => import('../features/session/pages/login-callback-page.tsx'),
  loginError: () => import('../features/session/pages/login-error-page.tsx'),
  projectList: () => import('../features/projects/pages/project-list-page.tsx'),
  projectCreate: () => import('../features/projects/pages/project-create-page.tsx'),
  projectWelcome: () => import('../features/projects/pages/welcome-page.tsx'),
  projectDisabled: () => import('../features/projects/pages/disabled-notice-page.tsx'),
  projectDashboard: () => import('../features/dashboard/pages/dashboard-page.tsx'),
  projectApps: () => import('../features/apps/pages/apps-page.tsx'),
  appCreate: () => import('../features/apps/pages/app-create-page.tsx'),
  appSettings: () => import('../features/apps/pages/app-settings-page.tsx'),
  projectAccounts: () => import('../features/accounts/pages/accounts-page.tsx'),
  accountCreate: () => import('../features/accounts/pages/account-create-page.tsx'),
  accountSettings: () => import('../features/accounts/pages/account-settings-page.tsx'),
  serviceAccountCreate: () => import('../features/accounts/pages/service-account-create-page.tsx'),
  projectAudit: () => import('../features/audit/pages/audit-page.tsx'),
  projectDevices: () => import('../features/devices/pages/devices-page.tsx'),
  projectSettings: () => import('../features/settings/pages/settings-page.tsx'),
  projectBranding: () => import('../features/settings/pages/branding-page.tsx'),
  projectUserVerification: () => import('../features/settings/pages/user-verification-page.tsx'),
  projectOidc: () => import('../features/settings/pages/oidc-page.tsx'),
  projectMobileApps: () => import('../features/settings/pages/mobile-apps-page.tsx'),
};

/** Until the router has the code of the first address. */
function StartupLoader() {
  const { t } = useTranslation();
  return (
    <main>
      <CenteredLoader fullScreen label={t('common.loading')} />
    </main>
  );
}

function handleOf(route: RouteName): RouteHandle {
  return { route, title: routeTable[route].title };
}

/** A route object of the table: path, guard (GuardedPage) and title/breadcrumb (handle). */
function page(route: PageName): RouteObject {
  const def = routeTable[route];
  if (def.scope === 'public') {
    return { path: def.path, handle: handleOf(route), lazy: async () => ({ Component: (await pages[route]()).default }) };
  }
  return {
    path: def.path,
    handle: handleOf(route),
    lazy: async () => {
      const [{ default: Page }, { GuardedPage }] = await Promise.all([pages[route](), loadShell()]);
      function GuardedRoute() {
        return (
          <GuardedPage route={route}>
            <Page />
          </GuardedPage>
        );
      }
      return { Component: GuardedRoute };
    },
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
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      HydrateFallback: StartupLoader,
      ErrorBoundary: RouteError,
      children: [
        {
          // The sign-in pages: no session entry there (spec §2).
          lazy: async () => ({ Component: (await import('./layout/public-layout.tsx')).PublicLayout }),
          children: [page('login'), page('loginError')],
        },
        {
          // spec §2 "Session entry": the account starts loading with the code, not after it.
          loader: () => {
            void queryClient.prefetchQuery(accountQuery);
            return null;
          },
          Component: SessionGate,
          children: [
            {
              lazy: async () => ({ Component: (await loadShell()).AppLayout }),
              children: [
                page('projectList'),
                page('projectCreate'),
                {
                  path: routeTable.forbidden.path,
                  handle: handleOf('forbidden'),
                  lazy: async () => ({ Component: (await loadShell()).ForbiddenMessage }),
                },
                {
                  lazy: async () => ({ Component: (await loadShell()).ProjectScope }),
                  children: projectPages.map(page),
                },
                {
                  path: '*',
                  handle: { route: null, title: 'notFound' } satisfies RouteHandle,
                  lazy: async () => ({ Component: (await loadShell()).NotFoundMessage }),
                },
              ],
            },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(queryClient: QueryClient) {
  return createBrowserRouter(createAppRoutes(queryClient));
}
