import type { ApplicationKeys } from '@latchkey/domain';
import { Anchor, Paper, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link, useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { WarningAlert } from '../../../components/warning-alert.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { KeysStepError, useCreateApp, type CreatedApp } from '../api/use-create-app.ts';
import { AppSecretModal } from '../components/app-secret-modal.tsx';
import { ApplicationTypeField } from '../components/application-type-field.tsx';
import { RedirectUrlFields } from '../components/redirect-url-fields.tsx';
import { useAppForm } from '../components/use-app-form.ts';

/** spec §2 appCreate, §5 "New app", §7: create the application, then its keys; show the secret once. */
export default function AppCreatePage() {
  const { t } = useTranslation('apps');
  const { t: tc } = useTranslation();
  const navigate = useNavigate();
  const project = useCurrentProject();
  const form = useAppForm({ name: '', redirectURI: [], applicationType: 'web' });
  const createApp = useCreateApp();
  // An application made by an earlier attempt whose key step failed: a retry asks only for its keys.
  const [halfMade, setHalfMade] = useState<{ app: CreatedApp; name: string } | null>(null);
  const [created, setCreated] = useState<{ app: CreatedApp; keys: ApplicationKeys } | null>(null);

  const nameIssue = form.nameTouched ? form.check.name : null;
  const closed = !project.enabled;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    form.touchAll();
    const values = form.check.valid;
    if (!values || createApp.isPending || closed) return;
    createApp.mutate(
      {
        projectId: project.id,
        name: values.name,
        applicationType: form.applicationType,
        redirectURI: values.redirectURI,
        existing: halfMade?.app ?? null,
      },
      {
        onSuccess: (result) => {
          setHalfMade(null);
          setCreated(result);
        },
        onError: (error) => {
          // spec §8: 'Failed to create new application', including the key step.
          notifyError(tc('notifications.error.app_created'), error);
          if (error instanceof KeysStepError) setHalfMade({ app: error.app, name: values.name });
        },
      },
    );
  };

  return (
    <PageFrame title={tc('pages.appCreate')} description={t('create.intro')}>
      {halfMade ? (
        <WarningAlert role="alert" title={t('create.keysFailedTitle')}>
          {t('create.keysFailedText', { name: halfMade.name })}{' '}
          <Anchor component={Link} to={routes.appSettings(project.id, halfMade.app.id)} size="sm" fw={600}>
            {t('create.openSettings')}
          </Anchor>
        </WarningAlert>
      ) : null}
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} maw={720}>
        <form onSubmit={submit} noValidate aria-label={tc('pages.appCreate')}>
          <Stack gap="lg">
            <TextInput
              label={t('form.name')}
              required
              autoComplete="off"
              data-autofocus
              value={form.name}
              // Once the application exists, a retry makes only its keys: the name is what it was made with.
              readOnly={halfMade !== null}
              disabled={closed}
              onChange={(event) => form.setName(event.currentTarget.value)}
              onBlur={form.touchName}
              error={nameIssue ? tc(validationKey(nameIssue)) : undefined}
            />
            <ApplicationTypeField value={form.applicationType} onChange={form.setApplicationType} readOnly={halfMade !== null} disabled={closed} />
            <RedirectUrlFields form={form} disabled={closed} />
            <div>
              <SubmitButton pending={createApp.isPending} disabled={form.check.valid === null || closed}>
                {t('create.submit')}
              </SubmitButton>
            </div>
          </Stack>
        </form>
      </Paper>
      <AppSecretModal
        keys={created?.keys ?? null}
        onAcknowledge={() => {
          if (created) void navigate(routes.appSettings(project.id, created.app.id), { replace: true });
        }}
      />
    </PageFrame>
  );
}
