import { useTranslation } from '../lib/i18n/react.tsx';
import { routes } from '../lib/routes.ts';
import { StatusMessage } from './status-message.tsx';

/** spec §2: any unknown path, and a project the account cannot see at all. */
export function NotFoundMessage() {
  const { t } = useTranslation();
  return <StatusMessage code="404" heading={t('errors.notFound')} action={{ label: t('errors.backHome'), to: routes.projectList() }} />;
}
