import { Button, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useSearchParams } from 'react-router';
import { StatusMessage } from '../../../components/status-message.tsx';
import { useLogout } from '../api/use-logout.ts';

type DeclinedReason = 'consent_required' | 'registration_disabled' | 'auth_error' | 'cancelled';

/** spec §2 "Authentication declined page": the message by error value; anything else reads as cancelled. */
export function declinedReason(error: string | null): DeclinedReason {
  switch (error) {
    case 'consent_required':
    case 'registration_disabled':
    case 'auth_error':
      return error;
    default:
      return 'cancelled';
  }
}

export default function LoginErrorPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const logout = useLogout();
  const reason = declinedReason(search.get('error'));

  return (
    <StatusMessage heading={t('pages.loginError')}>
      <Text size="lg">{t(`loginError.${reason}`)}</Text>
      <Button mt="sm" onClick={() => logout.mutate()} loading={logout.isPending}>
        {t('loginError.tryAgain')}
      </Button>
    </StatusMessage>
  );
}
