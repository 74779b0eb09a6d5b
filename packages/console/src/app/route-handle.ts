import { useMatches } from 'react-router';
import type { PageTitleKey, RouteName } from '../lib/routes.ts';

/** What each route object of the router carries besides its element (react-router `handle`). */
export interface RouteHandle {
  /** The named route of spec §2; null for the not-found catch-all. */
  route: RouteName | null;
  title: PageTitleKey;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return value !== null && typeof value === 'object' && 'title' in value && 'route' in value;
}

/** The handle and parameters of the deepest matched route. */
export function useCurrentRoute(): { handle: RouteHandle | null; params: Record<string, string | undefined> } {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const match = matches[i];
    if (match && isRouteHandle(match.handle)) return { handle: match.handle, params: match.params };
  }
  return { handle: null, params: {} };
}
