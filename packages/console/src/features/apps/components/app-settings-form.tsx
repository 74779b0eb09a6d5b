import { accountPageUrlOf, canSaveApplication, discoveryUrlOf, type Application, type ApplicationKeys, type Project } from '@latchkey/domain';
import { Alert, Button, SimpleGrid, TextInput } from '@mantine/core';
import { IconInfoCircle, IconKey } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CopyField } from '../../../components/copy-field.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { WarningAlert } from '../../../components/warning-alert.tsx';
import { api, isApiError, type Tagged } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useCreateAppKeys } from '../api/use-create-app-keys.ts';
import { useSaveAppSettings } from '../api/use-save-app-settings.ts';
import { AppDangerZone } from './app-danger-zone.tsx';
import { AppSecretModal } from './app-secret-modal.tsx';
import { BackchannelLogoutField, PostLogoutUrlFields, RedirectUrlFields } from './redirect-url-fields.tsx';
import { useAppForm } from './use-app-form.ts';

interface AppSettingsFormProps {
  app: Tagged<Application>;
  /** Null: the application has no keys yet (its creation stopped after the first step). */
  keys: Tagged<ApplicationKeys> | null;
  project: Project;
}

/**
 * spec §2 "Application settings": type (read-only), name, project and client id (copyable), the
 * redirect URLs; one Save (PUT app, then PUT keys), disabled while the app is disabled or the
 * project closed (spec §4, §5); the danger zone below.
 */
export function AppSettingsForm({ app, keys, project }: AppSettingsFormProps) {
  const { t } = useTranslation('apps');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm({
    name: app.data.name,
    redirectURI: keys?.data.redirectURI ?? [],
    postLogoutRedirectURI: keys?.data.postLogoutRedirectURI ?? [],
    backchannelLogoutURI: keys?.data.backchannelLogoutURI ?? '',
    applicationType: app.data.applicationType,
  });
  const save = useSaveAppSettings();
  const createKeys = useCreateAppKeys();
  const [firstKeys, setFirstKeys] = useState<ApplicationKeys | null>(null);
  const canSave = canSaveApplication(app.data, project);
  const nameIssue = form.nameTouched ? form.check.name : null;

  // Without keys there are no redirect URIs to save: Save takes the name alone, and the redirect rows
  // belong to "Create keys".
  const saveable = keys
    ? form.check.valid
    : form.check.validName === null
      ? null
      : { name: form.check.validName, redirectURI: null, postLogoutRedirectURI: null, backchannelLogoutURI: null };

  const submit = () => {
    if (!saveable) return;
    save.mutate(
      { current: app, keys, settings: saveable },
      {
        onError: (error) => {
          // spec §8: 'Failed to update application'. A stale version (412): read both again (the keys are under the app).
          notifyError(tc('notifications.error.app_updated'), error);
          if (isApiError(error) && error.status === 412) {
            void queryClient.invalidateQueries({ queryKey: resourceKey(api.getApp, { application: app.data.id }) });
          }
        },
      },
    );
  };

  const makeKeys = () => {
    form.touchAll();
    const redirectURI = form.check.valid?.redirectURI;
    if (!redirectURI) return;
    createKeys.mutate(
      { app: app.data, redirectURI },
      { onSuccess: (answer) => setFirstKeys(answer.data), onError: (error) => notifyError(tc('notifications.error.app_updated'), error) },
    );
  };

  return (
    <>
      <SettingsForm
        label={tc('pages.appSettings')}
        valid={saveable !== null}
        pending={save.isPending}
        locked={!canSave}
        onSave={submit}
        dangerZone={<AppDangerZone app={app} keys={keys} project={project} />}
      >
        {!app.data.enabled ? (
          <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
            {t('settings.disabledNote')}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
          <TextInput label={t('form.type')} value={app.data.platformCode} readOnly variant="filled" />
          <TextInput
            label={t('form.name')}
            required
            autoComplete="off"
            value={form.name}
            disabled={!canSave}
            onChange={(event) => form.setName(event.currentTarget.value)}
            onBlur={form.touchName}
            error={nameIssue ? tc(validationKey(nameIssue)) : undefined}
          />
          <TextInput
            label={t('form.applicationType')}
            description={t(`form.applicationTypes.${app.data.applicationType}.help`)}
            value={t(`form.applicationTypes.${app.data.applicationType}.label`)}
            readOnly
            variant="filled"
          />
          <CopyField label={t('form.projectId')} value={app.data.projectId} monospace />
          {keys ? <CopyField label={t('form.clientId')} value={keys.data.clientId} monospace /> : null}
        </SimpleGrid>
        {keys ? (
          // Issue 8: what a developer needs to connect, under the client id; full width, as the addresses are long.
          <SimpleGrid cols={1} spacing="lg">
            <CopyField label={t('form.issuer')} value={keys.data.issuer} monospace />
            <CopyField label={t('form.discoveryUrl')} value={discoveryUrlOf(keys.data.issuer)} monospace />
            <CopyField
              label={t('form.accountPageUrl')}
              description={t('form.accountPageUrlHelp')}
              value={accountPageUrlOf(keys.data.issuer)}
              monospace
            />
          </SimpleGrid>
        ) : null}
        {keys ? null : (
          <WarningAlert icon={<IconKey aria-hidden="true" />} title={t('settings.noKeysTitle')}>
            {t('settings.noKeysText')}
          </WarningAlert>
        )}
        <RedirectUrlFields form={form} disabled={!canSave} />
        {keys ? <PostLogoutUrlFields form={form} disabled={!canSave} /> : null}
        {keys ? <BackchannelLogoutField form={form} disabled={!canSave} /> : null}
        {keys ? null : (
          <div>
            <Button variant="light" onClick={makeKeys} loading={createKeys.isPending} disabled={!canSave}>
              {t('settings.createKeys')}
            </Button>
          </div>
        )}
      </SettingsForm>
      <AppSecretModal keys={firstKeys} onAcknowledge={() => setFirstKeys(null)} />
    </>
  );
}
