import { canGenerateKeys, type Application, type ApplicationKeys, type Project } from '@latchkey/domain';
import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { DangerAction, DangerButton } from '../../../components/settings-form.tsx';
import type { Tagged } from '../../../lib/api/index.ts';
import { notifyRawError } from '../../../lib/notify.ts';
import { useGenerateAppKeys } from '../api/use-generate-app-keys.ts';
import { useSetAppEnabled } from '../api/use-set-app-enabled.ts';
import { AppSecretModal } from './app-secret-modal.tsx';
import '../texts.ts';

type Action = 'generate' | 'disable' | 'enable';

interface AppDangerZoneProps {
  app: Tagged<Application>;
  /** Null: the application has no keys (nothing to regenerate). */
  keys: Tagged<ApplicationKeys> | null;
  project: Project;
}

/**
 * spec §2 "Application settings", §4 Application: generate new keys (only while the app and project
 * are enabled), disable and enable — each behind a confirm modal. Failures show the server's
 * message as it is (spec §8).
 */
export function AppDangerZone({ app, keys, project }: AppDangerZoneProps) {
  const { t } = useTranslation('apps');
  // The action asked about; it stays while the dialog closes, so the closing dialog keeps its text.
  const [action, setAction] = useState<Action>('disable');
  const [asking, setAsking] = useState(false);
  const ask = (next: Action) => {
    setAction(next);
    setAsking(true);
  };
  const [newKeys, setNewKeys] = useState<ApplicationKeys | null>(null);
  const generate = useGenerateAppKeys();
  const setEnabled = useSetAppEnabled();
  const { enabled, name } = app.data;
  const busy = generate.isPending || setEnabled.isPending;

  const confirm = () => {
    if (action === 'generate' && keys) {
      generate.mutate(
        { app: app.data, keys },
        {
          onSuccess: (answer) => {
            setAsking(false);
            setNewKeys(answer.data);
          },
          onError: (error) => {
            setAsking(false);
            notifyRawError(error);
          },
        },
      );
    } else if (action === 'disable' || action === 'enable') {
      setEnabled.mutate(
        { current: app, enabled: action === 'enable' },
        {
          onSettled: () => setAsking(false),
          onError: notifyRawError,
        },
      );
    }
  };

  const dialog =
    action === 'generate'
      ? {
          title: t('settings.generateConfirmTitle'),
          message: t('settings.generateConfirmText', { name }),
          confirm: t('settings.generateConfirm'),
          danger: true,
        }
      : action === 'disable'
        ? {
            title: t('settings.disableConfirmTitle'),
            message: t('settings.disableConfirmText', { name }),
            confirm: t('settings.disableConfirm'),
            danger: true,
          }
        : {
            title: t('settings.enableConfirmTitle'),
            message: t('settings.enableConfirmText', { name }),
            confirm: t('settings.enableConfirm'),
            danger: false,
          };

  return (
    <>
      {keys && canGenerateKeys(app.data, project) ? (
        <DangerAction
          title={t('settings.generateTitle')}
          description={t('settings.generateText')}
          action={<DangerButton onClick={() => ask('generate')}>{t('settings.generate')}</DangerButton>}
        />
      ) : null}
      {enabled ? (
        <DangerAction
          title={t('settings.disableTitle')}
          description={t('settings.disableText')}
          action={
            <DangerButton onClick={() => ask('disable')} disabled={!project.enabled}>
              {t('settings.disable')}
            </DangerButton>
          }
        />
      ) : (
        <DangerAction
          title={t('settings.enableTitle')}
          description={t('settings.enableText')}
          action={
            <Button onClick={() => ask('enable')} disabled={!project.enabled}>
              {t('settings.enable')}
            </Button>
          }
        />
      )}
      <ConfirmModal
        opened={asking}
        title={dialog.title}
        message={dialog.message}
        confirmLabel={dialog.confirm}
        danger={dialog.danger}
        loading={busy}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
      <AppSecretModal keys={newKeys} onAcknowledge={() => setNewKeys(null)} />
    </>
  );
}
