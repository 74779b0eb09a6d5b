import { canGenerateKeys, type Application, type ApplicationKeys, type Project } from '@latchkey/domain';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { DangerZoneActions } from '../../../components/danger-zone.tsx';
import type { Tagged } from '../../../lib/api/index.ts';
import { notifyRawError } from '../../../lib/notify.ts';
import { useGenerateAppKeys } from '../api/use-generate-app-keys.ts';
import { useSetAppEnabled } from '../api/use-set-app-enabled.ts';
import { AppSecretModal } from './app-secret-modal.tsx';

interface AppDangerZoneProps {
  app: Tagged<Application>;
  /** Null: the application has no keys (nothing to regenerate). */
  keys: Tagged<ApplicationKeys> | null;
  project: Project;
}

/**
 * spec §2 "Application settings", §4 Application: generate new keys (only while the app and project
 * are enabled), disable and enable — a list of confirm actions. Failures show the server's message
 * as it is (spec §8).
 */
export function AppDangerZone({ app, keys, project }: AppDangerZoneProps) {
  const { t } = useTranslation('apps');
  const [newKeys, setNewKeys] = useState<ApplicationKeys | null>(null);
  const generate = useGenerateAppKeys();
  const setEnabled = useSetAppEnabled();
  const { enabled, name } = app.data;
  const toggle = enabled ? 'disable' : 'enable';
  return (
    <>
      <DangerZoneActions
        actions={[
          keys && canGenerateKeys(app.data, project)
            ? {
                key: 'generate',
                title: t('settings.generateTitle'),
                description: t('settings.generateText'),
                button: t('settings.generate'),
                question: {
                  title: t('settings.generateConfirmTitle'),
                  message: t('settings.generateConfirmText', { name }),
                  confirm: t('settings.generateConfirm'),
                },
                run: () =>
                  generate
                    .mutateAsync({ app: app.data, keys })
                    .then((answer) => setNewKeys(answer.data))
                    .catch(notifyRawError),
              }
            : null,
          {
            key: toggle,
            title: t(`settings.${toggle}Title`),
            description: t(`settings.${toggle}Text`),
            button: t(`settings.${toggle}`),
            safe: !enabled,
            disabled: !project.enabled,
            question: {
              title: t(`settings.${toggle}ConfirmTitle`),
              message: t(`settings.${toggle}ConfirmText`, { name }),
              confirm: t(`settings.${toggle}Confirm`),
            },
            run: () => setEnabled.mutateAsync({ current: app, enabled: !enabled }).catch(notifyRawError),
          },
        ]}
      />
      <AppSecretModal keys={newKeys} onAcknowledge={() => setNewKeys(null)} />
    </>
  );
}
