import type { AuditEvent } from '@latchkey/domain';
import { Anchor } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { routes } from '../../../lib/routes.ts';
import { lastYear, useUserEvents } from '../api/use-user-events.ts';

/** The user's last events (the audit log filtered by their identity), and the whole of it in the audit log. */
export function UserEvents({ projectId, identity }: { projectId: string; identity: string }) {
  const { t } = useTranslation('users');
  const events = useUserEvents(projectId, identity, true);
  const columns = useMemo<Column<AuditEvent>[]>(
    () => [
      { key: 'createdAt', header: t('detail.eventTime'), shrink: true, render: (e) => <UtcTime iso={e.createdAt} /> },
      { key: 'action', header: t('detail.eventAction'), render: (e) => String(e.details['action'] ?? e.scope) },
      {
        key: 'result',
        header: t('detail.eventResult'),
        shrink: true,
        render: (e) => (
          <StatusBadge tone={e.eventStatus === 'success' ? 'positive' : e.eventStatus === 'created' ? 'neutral' : 'negative'}>
            {e.eventStatus}
          </StatusBadge>
        ),
      },
    ],
    [t],
  );
  const all = `${routes.projectAudit(projectId)}#${new URLSearchParams({
    userId: identity,
    ...lastYear(),
  }).toString()}`;
  return (
    <>
      <StaticTable
        label={t('detail.events')}
        columns={columns}
        rows={events.data?.list}
        rowKey={(e) => e.id}
        loading={events.isPending}
        error={events.error}
        onRetry={() => void events.refetch()}
        empty={t('detail.eventsNone')}
      />
      <Anchor component={Link} to={all} size="sm">
        {t('detail.eventsAll')}
      </Anchor>
    </>
  );
}
