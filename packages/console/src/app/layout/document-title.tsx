import { useEffect } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { useCurrentRoute } from '../route-handle.ts';

interface DocumentTitleProps {
  projectName?: string | undefined;
  /** What the page shows, when it names it: "Storefront · Application settings · Acme · Latchkey". */
  pageLabel?: string | null;
}

/** The browser tab title of the current route, e.g. "Projects · Latchkey" or "Dashboard · Acme · Latchkey". */
export function DocumentTitle({ projectName, pageLabel = null }: DocumentTitleProps) {
  const { t } = useTranslation();
  const { handle } = useCurrentRoute();
  const routeTitle = handle ? t(`pages.${handle.title}`) : t('app.name');
  const page = handle && pageLabel ? `${pageLabel} · ${routeTitle}` : routeTitle;
  const title = handle ? t('app.documentTitle', { page: projectName ? `${page} · ${projectName}` : page }) : page;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
