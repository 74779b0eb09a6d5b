import type { Project } from '@latchkey/domain';
import { Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { DangerZoneActions } from '../../../components/danger-zone.tsx';
import type { Tagged } from '../../../lib/api/index.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useCloseProject } from '../api/use-close-project.ts';

/**
 * spec §2 General "close project (danger zone)", §4: after a confirmation in which the user types
 * the project's name (issue 11), PUT projects/{id}/meta with enabled false. Not offered while the
 * project is closed already; a failure is 'Failed to update settings' (spec §8).
 */
export function CloseProject({ document }: { document: Tagged<Project> }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const close = useCloseProject();
  const [typed, setTyped] = useState('');
  const name = document.data.name;
  const named = typed.trim() === name;
  const run = () => close.mutateAsync(document).catch((error: unknown) => notifyError(tc('notifications.error.settings_updated'), error));
  return (
    <DangerZoneActions
      actions={[
        {
          key: 'close',
          title: t('close.title'),
          description: t('close.description'),
          button: t('close.action'),
          disabled: !document.data.enabled,
          onClosed: () => setTyped(''),
          run,
          question: {
            title: t('close.confirmTitle'),
            confirm: t('close.confirm'),
            waiting: !named,
            message: (confirm) => (
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
            ),
          },
        },
      ]}
    />
  );
}
