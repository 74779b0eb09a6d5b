import { Button, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/react.tsx';
import { CopyField } from './copy-field.tsx';
import { WarningAlert } from './warning-alert.tsx';
import './texts.ts';

interface OneTimeSecretModalProps {
  opened: boolean;
  /** The dialog's title and name ("Client secret", "Service account token"). */
  title: string;
  intro?: ReactNode;
  /** The identifier the secret belongs to (a client ID), when there is one. */
  identifier?: { label: string; value: string };
  secret: { label: string; value: string };
  /** The user says the secret is copied: the only way out. */
  onAcknowledge: () => void;
}

const stayOpen = () => undefined;

/**
 * spec §4 "One-time secrets": a client secret or a service-account token is shown once and must be
 * acknowledged as copied. No close button, Escape and clicks outside do nothing.
 */
export function OneTimeSecretModal({ opened, title, intro, identifier, secret, onAcknowledge }: OneTimeSecretModalProps) {
  const { t } = useTranslation('ui');
  return (
    <Modal
      opened={opened}
      onClose={stayOpen}
      title={title}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      centered
      size="lg"
    >
      <Stack gap="md">
        {intro ? <Text size="sm">{intro}</Text> : null}
        <WarningAlert title={t('secret.warningTitle')}>{t('secret.warning')}</WarningAlert>
        {identifier ? <CopyField label={identifier.label} value={identifier.value} monospace /> : null}
        <CopyField label={secret.label} value={secret.value} monospace data-autofocus />
        <Button onClick={onAcknowledge} fullWidth mt="xs">
          {t('secret.acknowledge')}
        </Button>
      </Stack>
    </Modal>
  );
}
