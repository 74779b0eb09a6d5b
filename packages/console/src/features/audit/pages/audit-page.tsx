import { AUDIT_RESULTS, auditList, type AuditEvent, type AuditResult } from '@latchkey/domain';
import { Button } from '@mantine/core';
import { IconListDetails } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CellText } from '../../../components/list/cell-text.tsx';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { useDeclaredList } from '../../../components/list/declared-filters.tsx';
import { ExportMenu } from '../../../components/list/export-menu.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { countryName } from '../../../lib/country-name.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import { AuditEventModal } from '../components/audit-event-modal.tsx';
import classes from '../components/audit.module.css';

/** A country code as people read it: `Netherlands (NL)`. */
function countryText(code: string): string {
  const name = countryName(code, code);
  return name === code ? code : `${name} (${code})`;
}

/** spec §2 "Audit list": eventStatus with underscores shown as spaces. */
function resultText(result: string): string {
  return result.replaceAll('_', ' ');
}

const RESULT_TONE: Record<AuditResult, 'positive' | 'neutral' | 'negative'> = {
  success: 'positive',
  created: 'positive',
  disabled: 'neutral',
  failed: 'negative',
  denied: 'negative',
  error: 'negative',
};

/**
 * spec §7: GET projects/{project}/audit with the declared filters, sort, offset and limit; and
 * GET projects/{project}/audit/export, the list's filter as a file.
 */
const { useList: useAuditEvents, exportFile: exportAuditEvents } = rangedListCalls({
  declared: auditList,
  name: 'audit',
  list: api.listAuditEvents,
  export: api.exportAuditEvents,
});

/** spec §2 "Audit list", §3 Audit event. */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // spec §9: by createdAt descending, in the current month; spec §7: the filters (domain's auditList).
  const { list, filterBar } = useDeclaredList(auditList, {
    userId: { label: t('list.account'), search: true },
    deviceName: { label: t('list.deviceName') },
    scope: { label: t('list.scope') },
    result: { label: t('list.result'), options: AUDIT_RESULTS.map((result) => ({ value: result, label: resultText(result) })) },
    // The whole action (details.action), as the dashboard's enrollment funnel links it.
    action: { label: t('list.action'), placeholder: t('list.actionHint') },
    // A two-letter code (ISO 3166-1, as the dashboard's map links it): it filters once whole.
    country: { label: t('list.country'), placeholder: t('list.countryHint'), maxLength: 2, chip: countryText },
  });
  const events = useAuditEvents(project.id, list.state);
  // The event shown; it stays while the dialog closes, so the closing dialog keeps its text.
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const [showing, setShowing] = useState(false);

  const columns = useMemo<Column<AuditEvent>[]>(
    () => [
      {
        key: 'createdAt',
        header: t('list.date'),
        sortField: 'createdAt',
        shrink: true,
        render: (event) => <UtcTime iso={event.createdAt} />,
      },
      {
        key: 'account',
        header: t('list.account'),
        sortField: 'userId',
        render: (event) => <CellText value={event.userID} none={t('list.none')} className={classes.account} strong />,
      },
      {
        key: 'deviceName',
        header: t('list.deviceName'),
        sortField: 'deviceName',
        hiddenOnPhone: true,
        render: (event) => <CellText value={event.deviceName} none={t('list.none')} className={classes.deviceName} />,
      },
      {
        key: 'scope',
        header: t('list.scope'),
        sortField: 'scope',
        shrink: true,
        hiddenOnPhone: true,
        render: (event) => <code className={classes.scope}>{event.scope}</code>,
      },
      {
        key: 'result',
        header: t('list.result'),
        sortField: 'result',
        shrink: true,
        render: (event) => <StatusBadge tone={RESULT_TONE[event.eventStatus]}>{resultText(event.eventStatus)}</StatusBadge>,
      },
      {
        key: 'details',
        header: t('list.details'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (event) => (
          <Button
            variant="subtle"
            size="compact-sm"
            leftSection={<IconListDetails size={16} aria-hidden="true" />}
            // The visible "Details" starts the name, which says which event's details they are.
            aria-label={t('list.detailsOf', { date: formatUtcDateTime(event.createdAt) })}
            aria-haspopup="dialog"
            onClick={() => {
              setShown(event);
              setShowing(true);
            }}
          >
            {t('list.details')}
          </Button>
        ),
      },
    ],
    [t],
  );

  return (
    <PageFrame
      title={tc('pages.projectAudit')}
      description={t('list.intro')}
      actions={<ExportMenu expected={events.data} load={(format, options) => exportAuditEvents(project.id, list.state, format, options)} />}
    >
      <DataList label={t('list.label')} list={list} result={events} columns={columns} rowKey={(event) => event.id} filters={filterBar} />
      <AuditEventModal event={shown} opened={showing} onClose={() => setShowing(false)} />
    </PageFrame>
  );
}
