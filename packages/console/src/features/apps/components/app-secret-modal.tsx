import type { ApplicationKeys } from '@latchkey/domain';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { OneTimeSecretModal } from '../../../components/one-time-secret-modal.tsx';

interface AppSecretModalProps {
  /** The answer that holds the secret; null: the modal is closed. */
  keys: ApplicationKeys | null;
  onAcknowledge: () => void;
}

/** spec §2, §4: the new client secret, shown once, with the client id; acknowledged to close. */
export function AppSecretModal({ keys, onAcknowledge }: AppSecretModalProps) {
  const { t } = useTranslation('apps');
  return (
    <OneTimeSecretModal
      opened={keys !== null}
      title={t('secret.title')}
      intro={t('secret.intro')}
      identifier={{ label: t('secret.clientId'), value: keys?.clientId ?? '' }}
      secret={{ label: t('secret.clientSecret'), value: keys?.clientSecret ?? '' }}
      onAcknowledge={onAcknowledge}
    />
  );
}
