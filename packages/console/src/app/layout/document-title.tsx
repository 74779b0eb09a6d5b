import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentRoute } from '../route-handle.ts';

/** The browser tab title of the current route, e.g. "Projects · Latchkey" or "Dashboard · Acme · Latchkey". */
export function DocumentTitle({ projectName }: { projectName?: string | undefined }) {
  const { t } = useTranslation();
  const { handle } = useCurrentRoute();
  const page = handle ? t(`pages.${handle.title}`) : t('app.name');
  const title = handle ? t('app.documentTitle', { page: projectName ? `${page} · ${projectName}` : page }) : page;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
