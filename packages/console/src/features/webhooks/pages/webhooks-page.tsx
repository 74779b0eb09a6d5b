import type { Webhook } from '@latchkey/domain';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { RowLink } from '../../../components/list/row-link.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiQuery } from '../../../lib/use-api.ts';
import { WebhookCreate } from '../components/webhook-create.tsx';
import classes from '../components/webhooks.module.css';

/** An endpoint's state in a word: disabled, failing (its deliveries fail now), or enabled. */
export function WebhookStatus({ webhook }: { webhook: Webhook }) {
  const { t } = useTranslation('webhooks');
  if (!webhook.enabled) return <StatusBadge tone="neutral">{t('list.disabled')}</StatusBadge>;
  if (webhook.failingSince) return <StatusBadge tone="negative">{t('list.failing')}</StatusBadge>;
  return <StatusBadge tone="positive">{t('list.enabled')}</StatusBadge>;
}

/** Issue 24 "Webhooks": the project's endpoints, and "Add endpoint". */
export default function WebhooksPage() {
  const { t } = useTranslation('webhooks');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const webhooks = useApiQuery(api.listWebhooks, { params: { project: project.id } });
  const columns = useMemo<Column<Webhook>[]>(
    () => [
      {
        key: 'url',
        header: t('list.url'),
        render: (w) => (
          <Link to={routes.webhookDetail(project.id, w.id)} className={classes.url}>
            {w.url}
          </Link>
        ),
      },
      {
        key: 'events',
        header: t('list.events'),
        shrink: true,
        hiddenOnPhone: true,
        render: (w) => t('list.eventsCount', { count: w.eventTypes.length }),
      },
      { key: 'status', header: t('list.status'), shrink: true, render: (w) => <WebhookStatus webhook={w} /> },
      {
        key: 'open',
        header: t('list.open'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (w) => <RowLink to={routes.webhookDetail(project.id, w.id)} label={t('list.open')} name={t('list.openOf', { url: w.url })} />,
      },
    ],
    [t, project.id],
  );
  const list = webhooks.data?.list;
  return (
    <PageFrame
      title={tc('pages.projectWebhooks')}
      description={t('list.intro')}
      actions={<WebhookCreate projectId={project.id} disabled={!project.enabled} />}
    >
      <StaticTable
        label={t('list.label')}
        columns={columns}
        rows={list}
        rowKey={(w) => w.id}
        loading={webhooks.isPending}
        error={webhooks.error}
        onRetry={() => void webhooks.refetch()}
        empty={t('list.none')}
      />
    </PageFrame>
  );
}
