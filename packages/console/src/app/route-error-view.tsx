import { useTranslation } from '../lib/i18n/react.tsx';
import { FullPageMessage } from '../components/full-page-message.tsx';

export default function RouteErrorView() {
  const { t } = useTranslation();
  return (
    <FullPageMessage
      title={t('errors.unexpectedTitle')}
      text={t('errors.unexpectedText')}
      action={{ label: t('errors.reload'), onClick: () => window.location.reload() }}
    />
  );
}
