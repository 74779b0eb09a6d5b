import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { useTranslation } from '../lib/i18n/react.tsx';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { CenteredLoader } from '../components/centered-loader.tsx';
import { routeNames, routeTable, type RouteDef, type RouteName } from '../lib/routes.ts';
import { accountQuery } from '../lib/session.ts';
import { loadPendingTexts } from '../lib/i18n/index.ts';
import { RouteError } from './route-error.tsx';
import type { RouteHandle } from './route-handle.ts';
import { SessionGate } from './session/session-gate.tsx';

// The first download holds only what every visit needs: the providers, this table and the session
// entry (which may send the browser straight to the identity provider). Everything else is loaded by
// the router (route `lazy`): the signed-in shell and the page of the address, in parallel with each
// other and with the account, before the first render — no waterfall of suspending components.
// Each also fetches the current language's texts of what it loaded (lib/i18n `loadPendingTexts`)
// before the router renders it, so a page in French never shows its English first; a page's feature
// texts are found from its folder (app/feature-texts.ts) and fetched beside its code.
const loadShell = withTexts(() => import('./layout/shell.ts'));

type PageModule = { default: ComponentType };

/** Code loaded on demand, then the current language's texts it registered. */
function withTexts<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => {
    const loaded = await load();
    await loadPendingTexts();
    return loaded;
  };
}

// Every page file, loaded on demand: the first download holds only these names and loaders. The
// route table names each route's page by its path relative to lib/, which is this glob's key too
// (lib/ and app/ sit side by side).
const pageModules = import.meta.glob<PageModule>('../features/*/pages/*-page.tsx');

function pageLoader(route: RouteName): () => Promise<PageModule> {
  const { page } = routeTable[route];
  const load = pageModules[page];
  if (!load) throw new Error(`Route ${route}: no page file ${page}`);
  // The texts of the page's feature, beside its code (app/feature-texts.ts: a chunk of its own).
  return withTexts(async () => (await Promise.all([load(), import('./feature-texts.ts').then((texts) => texts.loadPageTexts(page))]))[0]);
}

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
function page(route: RouteName): RouteObject {
  const def = routeTable[route];
  const loadPage = pageLoader(route);
  if (def.scope === 'public') {
    return { path: def.path, handle: handleOf(route), lazy: async () => ({ Component: (await loadPage()).default }) };
  }
  return {
    path: def.path,
    handle: handleOf(route),
    lazy: async () => {
      const [{ default: Page }, { GuardedPage }] = await Promise.all([loadPage(), loadShell()]);
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

/** The table's routes of one scope, as route objects. */
function pagesOf(scope: RouteDef['scope']): RouteObject[] {
  return routeNames.filter((name) => routeTable[name].scope === scope).map(page);
}

/** spec §2 "Routes", as react-router route objects. */
export function createAppRoutes(queryClient: QueryClient): RouteObject[] {
  return [
    {
      HydrateFallback: StartupLoader,
      ErrorBoundary: RouteError,
      children: [
        {
          // The sign-in pages: no session entry there (spec §2).
          lazy: async () => ({ Component: (await withTexts(() => import('./layout/public-layout.tsx'))()).PublicLayout }),
          children: pagesOf('public'),
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
                ...pagesOf('account'),
                {
                  lazy: async () => ({ Component: (await loadShell()).ProjectScope }),
                  children: pagesOf('project'),
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
