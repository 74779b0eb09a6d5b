import { Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { startSignIn } from '../../lib/session.ts';

const stayOpen = () => undefined;

/**
 * spec §2 "Layout": the session-expired modal cannot be dismissed (no close button, no Escape, no
 * outside click); its button signs in again and comes back to the current path.
 */
export default function SessionExpiredDialog() {
  const { t } = useTranslation();
  const [signingIn, setSigningIn] = useState(false);

  const logIn = () => {
    setSigningIn(true);
    startSignIn().catch(() => setSigningIn(false));
  };

  return (
    <Modal
      opened
      onClose={stayOpen}
      title={t('session.expiredTitle')}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      zIndex={1000}
    >
      <Text>{t('session.expiredText')}</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={logIn} loading={signingIn} data-autofocus>
          {t('session.logIn')}
        </Button>
      </Group>
    </Modal>
  );
}
