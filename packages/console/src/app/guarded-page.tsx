import type { ReactNode } from 'react';
import { ForbiddenMessage } from '../components/forbidden-message.tsx';
import { usePermission } from '../lib/use-permission.ts';
import { routeTable, type RouteName } from '../lib/routes.ts';

interface GuardedPageProps {
  route: RouteName;
  children: ReactNode;
}

/** spec §2 "403 page", §6 "Page guards": a page whose guard the account fails shows the forbidden message instead. */
export function GuardedPage({ route, children }: GuardedPageProps) {
  const allowed = usePermission(routeTable[route].guard);
  return allowed ? children : <ForbiddenMessage />;
}
