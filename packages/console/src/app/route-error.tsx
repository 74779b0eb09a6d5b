import { lazy, Suspense } from 'react';
import { useRouteError } from 'react-router';

const RouteErrorView = lazy(() => import('./route-error-view.tsx'));

/**
 * Whatever a route could not do (most often: its code could not be downloaded, e.g. after a new
 * version was deployed). Rare, so its view is not part of the first download.
 */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <Suspense fallback={null}>
      <RouteErrorView />
    </Suspense>
  );
}
