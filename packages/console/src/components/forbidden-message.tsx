import { useTranslation } from '../lib/i18n/react.tsx';
import { routes } from '../lib/routes.ts';
import { StatusMessage } from './status-message.tsx';

/** spec §2 "403 page": shown in place of a page whose permission guard fails. */
export function ForbiddenMessage() {
  const { t } = useTranslation();
  return <StatusMessage code="403" heading={t('errors.forbidden')} action={{ label: t('errors.backHome'), to: routes.projectList() }} />;
}
