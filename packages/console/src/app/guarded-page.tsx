import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CenteredLoader } from '../components/centered-loader.tsx';
import { ForbiddenMessage } from '../components/forbidden-message.tsx';
import { usePermission } from '../lib/permissions.ts';
import { routeTable, type RouteName } from '../lib/routes.ts';

interface GuardedPageProps {
  route: RouteName;
  children: ReactNode;
}

/**
 * spec §2 "403 page", §6 "Page guards": a page whose guard the account fails shows the forbidden
 * message instead (and its code is not even loaded).
 */
export function GuardedPage({ route, children }: GuardedPageProps) {
  const { t } = useTranslation();
  const allowed = usePermission(routeTable[route].guard);
  if (!allowed) return <ForbiddenMessage />;
  return <Suspense fallback={<CenteredLoader label={t('common.loading')} />}>{children}</Suspense>;
}
