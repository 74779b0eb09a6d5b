import type { Webhook, WebhookDelivery } from '@latchkey/domain';
import { Alert, Button, Stack, Title } from '@mantine/core';
import { IconInfoCircle, IconSend } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { DangerZoneActions } from '../../../components/danger-zone.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { NotFoundMessage } from '../../../components/not-found-message.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { DangerZone, SettingsForm } from '../../../components/settings-form.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { api, isApiError, type Tagged } from '../../../lib/api/index.ts';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError, notifyRawError, notifySuccess } from '../../../lib/notify.ts';
import { usePageLabel } from '../../../lib/page-label.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { useApiMutation, useApiQuery, useTaggedQuery } from '../../../lib/use-api.ts';
import { useSaveWebhook } from '../api/use-save-webhook.ts';
import { useWebhookDraft, WebhookFields, webhookBody } from '../components/webhook-fields.tsx';
import classes from '../components/webhooks.module.css';
import { WebhookStatus } from './webhooks-page.tsx';

/** Issue 24: one endpoint — its settings, a test event, its delivery log with Resend, and Delete. */
export default function WebhookPage() {
  const { t } = useTranslation('webhooks');
  const { t: tc } = useTranslation();
  const { webhook: webhookId = '' } = useParams();
  const project = useCurrentProject();
  const webhook = useTaggedQuery(api.getWebhook, { params: { project: project.id, webhook: webhookId } });
  usePageLabel(webhook.data?.data.url);
  if (isApiError(webhook.error) && webhook.error.status === 404) return <NotFoundMessage />;
  return (
    <PageFrame
      title={tc('pages.webhookDetail')}
      description={webhook.data?.data.url}
      actions={webhook.data ? <WebhookStatus webhook={webhook.data.data} /> : null}
    >
      {webhook.error ? (
        <ErrorAlert title={t('detail.loadFailed')} error={webhook.error} onRetry={() => void webhook.refetch()} />
      ) : webhook.data ? (
        <WebhookForm key={webhook.data.etag ?? ''} projectId={project.id} current={webhook.data} closed={!project.enabled} />
      ) : (
        <CenteredLoader label={tc('common.loading')} />
      )}
    </PageFrame>
  );
}

function WebhookForm({ projectId, current, closed }: { projectId: string; current: Tagged<Webhook>; closed: boolean }) {
  const { t } = useTranslation('webhooks');
  const navigate = useNavigate();
  const w = current.data;
  const form = useWebhookDraft({ url: w.url, description: w.description, eventTypes: [...w.eventTypes], enabled: w.enabled });
  const [urlIssue, setUrlIssue] = useState<string | null>(null);
  const save = useSaveWebhook(projectId, w.id);
  const params = { project: projectId, webhook: w.id };
  // A message queued for the endpoint (a test event, or a delivery again): the log is read again.
  const test = useApiMutation(api.testWebhook, { invalidates: [api.listWebhookDeliveries] });
  const resend = useApiMutation(api.resendWebhookDelivery, { invalidates: [api.listWebhookDeliveries] });
  const remove = useApiMutation(api.deleteWebhook, { invalidates: [api.listWebhooks] });
  const body = webhookBody(form.draft);
  return (
    <Stack gap="xl">
      {w.disabledReason ? (
        <Alert color="red" variant="light" icon={<IconInfoCircle aria-hidden="true" />} title={t('detail.disabledReason')}>
          {w.disabledReason}
        </Alert>
      ) : w.failingSince ? (
        <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
          {t('detail.failingSince', { since: formatUtcDateTime(w.failingSince) })}
        </Alert>
      ) : null}
      <SettingsForm
        label={w.url}
        valid={body !== null}
        pending={save.isPending}
        lockFieldsWhenClosed
        onSave={() => {
          if (!body) return;
          save.mutate(
            { current, body },
            {
              onSuccess: () => notifySuccess(t('form.saved')),
              onError: (error) => {
                const issue = isApiError(error) ? error.issues.find((i) => i.field === 'url') : undefined;
                if (issue) setUrlIssue(issue.message);
                else notifyError(t('form.saveFailed'), error);
              },
            },
          );
        }}
      >
        <WebhookFields form={form} serverUrlError={urlIssue} />
      </SettingsForm>
      <DeliveryLog
        projectId={projectId}
        webhook={w}
        closed={closed}
        sending={test.isPending}
        onTest={() => test.mutate({ params }, { onSuccess: () => notifySuccess(t('detail.testSent')), onError: notifyRawError })}
        onResend={(id) =>
          resend.mutate({ params: { ...params, delivery: id } }, { onSuccess: () => notifySuccess(t('detail.resent')), onError: notifyRawError })
        }
      />
      {closed ? null : (
        <DangerZone>
          <DangerZoneActions
            actions={[
              {
                key: 'delete',
                title: t('detail.deleteTitle'),
                description: t('detail.deleteText'),
                button: t('detail.delete'),
                question: {
                  title: t('detail.deleteConfirmTitle'),
                  message: t('detail.deleteConfirmText', { url: w.url }),
                  confirm: t('detail.delete'),
                },
                run: () =>
                  remove
                    .mutateAsync({ params })
                    .then(() => {
                      notifySuccess(t('detail.deleted'));
                      void navigate(routes.projectWebhooks(projectId));
                    })
                    .catch(notifyRawError),
              },
            ]}
          />
        </DangerZone>
      )}
    </Stack>
  );
}

function DeliveryLog({
  projectId,
  webhook,
  closed,
  sending,
  onTest,
  onResend,
}: {
  projectId: string;
  webhook: Webhook;
  closed: boolean;
  sending: boolean;
  onTest: () => void;
  onResend: (id: string) => void;
}) {
  const { t } = useTranslation('webhooks');
  // Read again every few seconds while pending deliveries wait.
  const deliveries = useApiQuery(
    api.listWebhookDeliveries,
    { params: { project: projectId, webhook: webhook.id }, query: { limit: 50 } },
    { refetchInterval: (query) => (query.state.data?.list.some((d) => d.status === 'pending') ? 3000 : false) },
  );
  const columns = useMemo<Column<WebhookDelivery>[]>(() => {
    const tone = { delivered: 'positive', failed: 'negative', pending: 'neutral' } as const;
    const all: Column<WebhookDelivery>[] = [
      { key: 'time', header: t('detail.time'), shrink: true, render: (d) => <UtcTime iso={d.createdAt} /> },
      { key: 'event', header: t('detail.event'), render: (d) => <span className={classes.type}>{d.eventType}</span> },
      {
        key: 'result',
        header: t('detail.result'),
        shrink: true,
        render: (d) => <StatusBadge tone={tone[d.status]}>{t(`detail.${d.status}`)}</StatusBadge>,
      },
      { key: 'attempts', header: t('detail.attempts'), shrink: true, align: 'right', hiddenOnPhone: true, render: (d) => d.attempts },
      {
        key: 'answer',
        header: t('detail.answer'),
        shrink: true,
        hiddenOnPhone: true,
        render: (d) => (
          <span className={classes.mono}>
            {d.lastStatus !== null ? `HTTP ${d.lastStatus}${d.lastMs !== null ? ` · ${d.lastMs} ms` : ''}` : (d.lastReason ?? '—')}
          </span>
        ),
      },
    ];
    if (closed) return all;
    return [
      ...all,
      {
        key: 'resend',
        header: t('detail.resend'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (d) =>
          d.status === 'pending' ? null : (
            <Button
              variant="subtle"
              size="compact-sm"
              aria-label={t('detail.resendOf', { event: d.eventType, time: formatUtcDateTime(d.createdAt) })}
              onClick={() => onResend(d.id)}
            >
              {t('detail.resend')}
            </Button>
          ),
      },
    ];
  }, [t, closed, onResend]);
  const list = deliveries.data?.list;
  return (
    <Stack gap="sm" component="section" aria-labelledby="webhook-log">
      <div className={classes.logHead}>
        <div>
          <Title order={2} size="h3" id="webhook-log">
            {t('detail.log')}
          </Title>
          <p className={classes.hint}>{t('detail.logIntro')}</p>
        </div>
        {closed || !webhook.enabled ? null : (
          <Button variant="default" leftSection={<IconSend size={16} aria-hidden="true" />} loading={sending} onClick={onTest}>
            {t('detail.test')}
          </Button>
        )}
      </div>
      <StaticTable
        label={t('detail.log')}
        columns={columns}
        rows={list}
        rowKey={(d) => d.id}
        loading={deliveries.isPending}
        error={deliveries.error}
        onRetry={() => void deliveries.refetch()}
        empty={t('detail.logNone')}
      />
    </Stack>
  );
}
