import { useTranslation } from '../../lib/i18n/react.tsx';
import { FullPageMessage } from '../../components/full-page-message.tsx';

/** The account could not be loaded and the identity provider's address could not be fetched either. */
export default function SignInUnavailable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <FullPageMessage
      title={t('session.signInUnavailableTitle')}
      text={t('session.signInUnavailableText')}
      action={{ label: t('common.retry'), onClick: onRetry }}
    />
  );
}
