import type { WebhookCreated } from '@latchkey/domain';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { OneTimeSecretModal } from '../../../components/one-time-secret-modal.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { api, isApiError } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { routes } from '../../../lib/routes.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import { emptyWebhook, useWebhookDraft, WebhookFields, webhookBody } from './webhook-fields.tsx';

/** "Add endpoint": the fields in a dialog; once made, its secret shown once, then its page. */
export function WebhookCreate({ projectId, disabled }: { projectId: string; disabled: boolean }) {
  const { t } = useTranslation('webhooks');
  const { t: tu } = useTranslation('ui');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const [urlIssue, setUrlIssue] = useState<string | null>(null);
  const form = useWebhookDraft(emptyWebhook);
  const create = useApiMutation(api.createWebhook, { invalidates: [api.listWebhooks] });
  const body = webhookBody(form.draft);
  const submit = () => {
    if (!body) return;
    create.mutate(
      { params: { project: projectId }, body },
      {
        onSuccess: (answer) => {
          setOpen(false);
          setCreated(answer);
        },
        onError: (error) => {
          const issue = isApiError(error) ? error.issues.find((i) => i.field === 'url') : undefined;
          if (issue) setUrlIssue(issue.message);
          else notifyError(t('form.createFailed'), error);
        },
      },
    );
  };
  return (
    <>
      <Button leftSection={<IconPlus size={16} aria-hidden="true" />} disabled={disabled} onClick={() => setOpen(true)}>
        {t('list.add')}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('form.createTitle')} size="lg" centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          noValidate
        >
          <Stack gap="lg">
            <WebhookFields form={form} serverUrlError={urlIssue} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                {tu('actions.cancel')}
              </Button>
              <SubmitButton pending={create.isPending} disabled={!body}>
                {t('form.create')}
              </SubmitButton>
            </Group>
          </Stack>
        </form>
      </Modal>
      <OneTimeSecretModal
        opened={created !== null}
        title={t('secret.title')}
        intro={t('secret.intro')}
        identifier={created ? { label: t('list.url'), value: created.url } : undefined}
        secret={{ label: t('secret.label'), value: created?.secret ?? '' }}
        onAcknowledge={() => {
          const id = created?.id;
          setCreated(null);
          if (id) void navigate(routes.webhookDetail(projectId, id));
        }}
      />
    </>
  );
}
