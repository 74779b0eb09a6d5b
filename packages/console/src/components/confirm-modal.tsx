import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/react.tsx';
import './texts.ts';

/** Red with white text above 4.5:1 in both schemes (red.7, the light default, is 3.9:1). */
export const DANGER_COLOR = 'red.9';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  confirmLabel: string;
  /** The confirmed action is under way: the confirm button shows it, and the dialog stays open. */
  loading?: boolean;
  /** A destructive action is red; anything else the primary color. */
  danger?: boolean;
  /** The confirm button waits for something the dialog asks for (e.g. the project's name typed). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A question before an action that cannot be taken back (spec §2: generate keys, disable, enable, revoke…). */
export function ConfirmModal({
  opened,
  title,
  message,
  confirmLabel,
  loading = false,
  danger = true,
  confirmDisabled = false,
  onConfirm,
  onCancel,
}: ConfirmModalProps) {
  const { t } = useTranslation('ui');
  const cancel = () => {
    if (!loading) onCancel();
  };
  return (
    <Modal
      opened={opened}
      onClose={cancel}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('actions.close'), disabled: loading }}
      closeOnEscape={!loading}
      closeOnClickOutside={!loading}
    >
      {typeof message === 'string' ? <Text size="sm">{message}</Text> : message}
      <Group justify="flex-end" gap="sm" mt="lg">
        {/* A destructive action starts from Cancel: Enter alone does not confirm it. */}
        <Button variant="default" onClick={cancel} disabled={loading} data-autofocus={danger || undefined}>
          {t('actions.cancel')}
        </Button>
        <Button
          color={danger ? DANGER_COLOR : undefined}
          onClick={onConfirm}
          disabled={confirmDisabled}
          loading={loading}
          aria-busy={loading}
          data-autofocus={!danger || undefined}
        >
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
