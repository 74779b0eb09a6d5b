import type { Project } from '@latchkey/domain';
import { Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { DangerAction, DangerButton } from '../../../components/settings-form.tsx';
import type { Tagged } from '../../../lib/api/index.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useCloseProject } from '../api/use-close-project.ts';
import '../texts.ts';

/**
 * spec §2 General "close project (danger zone)", §4: after a confirmation in which the user types
 * the project's name (issue 11), PUT projects/{id}/meta with enabled false. Not offered while the
 * project is closed already; a failure is 'Failed to update settings' (spec §8).
 */
export function CloseProject({ document }: { document: Tagged<Project> }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const close = useCloseProject();
  const [opened, setOpened] = useState(false);
  const [typed, setTyped] = useState('');
  const name = document.data.name;
  const cancel = () => {
    setOpened(false);
    setTyped('');
  };
  const confirm = () => {
    if (typed.trim() !== name) return;
    close.mutate(document, {
      onSuccess: cancel,
      onError: (error) => {
        cancel();
        notifyError(tc('notifications.error.settings_updated'), error);
      },
    });
  };
  return (
    <>
      <DangerAction
        title={t('close.title')}
        description={t('close.description')}
        action={
          <DangerButton onClick={() => setOpened(true)} disabled={!document.data.enabled}>
            {t('close.action')}
          </DangerButton>
        }
      />
      <ConfirmModal
        opened={opened}
        title={t('close.confirmTitle')}
        confirmLabel={t('close.confirm')}
        loading={close.isPending}
        confirmDisabled={typed.trim() !== name}
        onConfirm={confirm}
        onCancel={cancel}
        message={
          <Stack gap="sm">
            <Text size="sm">{t('close.confirmText', { name })}</Text>
            <TextInput
              data-autofocus
              label={t('close.nameLabel')}
              autoComplete="off"
              spellCheck={false}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') confirm();
              }}
            />
          </Stack>
        }
      />
    </>
  );
}
