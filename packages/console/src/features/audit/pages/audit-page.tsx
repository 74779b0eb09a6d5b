import { AUDIT_LIST_DEFAULT_SORT, AUDIT_RESULTS, AUDIT_SCOPES, AUDIT_SORT_FIELDS, type AuditEvent, type AuditResult } from '@latchkey/domain';
import { Button, Select, TextInput } from '@mantine/core';
import { IconListDetails, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CellText } from '../../../components/list/cell-text.tsx';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { DateRangeFilter } from '../../../components/list/date-range-filter.tsx';
import { ExportMenu } from '../../../components/list/export-menu.tsx';
import type { ActiveFilter } from '../../../components/list/filter-bar.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { useFilterText } from '../../../lib/list-state/use-filter-text.ts';
import { useMonthListState } from '../../../lib/list-state/use-ranged-list.ts';
import { countryName } from '../../../lib/country-name.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { exportAuditEvents, useAuditEvents } from '../api/use-audit-events.ts';
import { AuditEventModal } from '../components/audit-event-modal.tsx';
import classes from '../components/audit.module.css';
import '../texts.ts';

/** spec §9: audit events by createdAt descending, in the current month; spec §7: the filters. */
const LIST_DEFAULTS = {
  ...AUDIT_LIST_DEFAULT_SORT,
  sortFields: AUDIT_SORT_FIELDS,
  filterKeys: ['userId', 'deviceName', 'scope', 'result', 'country', 'fromDate', 'toDate'],
};

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

/** spec §2 "Audit list", §3 Audit event. */
export default function AuditPage() {
  const { t } = useTranslation('audit');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const { list, month } = useMonthListState(LIST_DEFAULTS);
  const events = useAuditEvents(project.id, list.state);
  const { filters } = list.state;
  const setFilter = list.setFilter;
  const [userId, setUserId] = useFilterText(filters['userId'] ?? '', (value) => setFilter('userId', value));
  const [deviceName, setDeviceName] = useFilterText(filters['deviceName'] ?? '', (value) => setFilter('deviceName', value));
  // A country is a two-letter code (ISO 3166-1, as the dashboard's map links it); it filters once whole.
  const [country, setCountry] = useFilterText(filters['country'] ?? '', (value) => {
    if (value === '' || /^[A-Za-z]{2}$/.test(value)) setFilter('country', value.toUpperCase());
  });
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

  const active: ActiveFilter[] = [];
  if (filters['userId']) active.push({ key: 'userId', label: t('list.account'), value: filters['userId'] });
  if (filters['deviceName']) active.push({ key: 'deviceName', label: t('list.deviceName'), value: filters['deviceName'] });
  if (filters['scope']) active.push({ key: 'scope', label: t('list.scope'), value: filters['scope'] });
  if (filters['result']) active.push({ key: 'result', label: t('list.result'), value: resultText(filters['result']) });
  if (filters['country']) active.push({ key: 'country', label: t('list.country'), value: countryText(filters['country']) });

  return (
    <PageFrame
      title={tc('pages.projectAudit')}
      description={t('list.intro')}
      actions={<ExportMenu expected={events.data} load={(format, options) => exportAuditEvents(project.id, list.state, format, options)} />}
    >
      <DataList
        label={t('list.label')}
        list={list}
        result={events}
        columns={columns}
        rowKey={(event) => event.id}
        activeFilters={active}
        filters={
          <>
            <TextInput
              label={t('list.account')}
              autoComplete="off"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={userId}
              onChange={(event) => setUserId(event.currentTarget.value)}
            />
            <TextInput
              label={t('list.deviceName')}
              autoComplete="off"
              value={deviceName}
              onChange={(event) => setDeviceName(event.currentTarget.value)}
            />
            <Select
              label={t('list.scope')}
              placeholder={tu('list.any')}
              data={AUDIT_SCOPES.map((scope) => ({ value: scope, label: scope }))}
              value={filters['scope'] ?? null}
              onChange={(value) => setFilter('scope', value ?? '')}
              clearable
              clearButtonProps={{ 'aria-label': tu('list.clearFilter', { label: t('list.scope') }) }}
              allowDeselect
            />
            <Select
              label={t('list.result')}
              placeholder={tu('list.any')}
              data={AUDIT_RESULTS.map((result) => ({ value: result, label: resultText(result) }))}
              value={filters['result'] ?? null}
              onChange={(value) => setFilter('result', value ?? '')}
              clearable
              clearButtonProps={{ 'aria-label': tu('list.clearFilter', { label: t('list.result') }) }}
              allowDeselect
            />
            <TextInput
              label={t('list.country')}
              placeholder={t('list.countryHint')}
              autoComplete="off"
              maxLength={2}
              value={country}
              onChange={(event) => setCountry(event.currentTarget.value)}
            />
            <DateRangeFilter fromDate={filters['fromDate'] ?? ''} toDate={filters['toDate'] ?? ''} defaults={month} onChange={setFilter} />
          </>
        }
      />
      <AuditEventModal event={shown} opened={showing} onClose={() => setShowing(false)} />
    </PageFrame>
  );
}
