import { SCOPES, USAGE_RANGE, type Scope } from '@latchkey/domain';
import { Button, Paper, Select, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { DateRangeFilter } from '../../../components/list/date-range-filter.tsx';
import { FilterBar, type ActiveFilter } from '../../../components/list/filter-bar.tsx';
import listClasses from '../../../components/list/list.module.css';
import { PageFrame } from '../../../components/page-frame.tsx';
import { browser } from '../../../lib/browser.ts';
import { utcDay } from '../../../lib/format-date.ts';
import { useListState } from '../../../lib/list-state/use-list-state.ts';
import { useUsageLocations, useUsagePeriods, type UsageFilters } from '../api/use-usage.ts';
import { usageCsv } from '../usage-data.ts';
import classes from './dashboard.module.css';
import { UsageChart } from './usage-chart.tsx';
import { UsageMap } from './usage-map.tsx';
import { formatNumber } from '../../../lib/format-number.ts';

/** spec §9 "Default ranges": the dashboard shows the current calendar year, 1 Jan to 31 Dec (UTC). */
function currentYearDays(now: Date): { fromDate: string; toDate: string } {
  const year = now.getUTCFullYear();
  return { fromDate: utcDay(new Date(Date.UTC(year, 0, 1))), toDate: utcDay(new Date(Date.UTC(year, 11, 31))) };
}

const isScope = (value: string | undefined): value is Scope => (SCOPES as readonly string[]).includes(value ?? '');

interface UsageDashboardProps {
  title: string;
  description: string;
  /** One project's usage, or null: every project's (glb::usage). */
  projectId: string | null;
  /** What the CSV file is named after: the project id, or `all-projects`. */
  fileLabel: string;
  /** More below the map (the global dashboard's top projects), given the filters in force. */
  children?: (filters: UsageFilters) => ReactNode;
}

/**
 * spec §2 "Dashboard": the filter bar (from, to, scope; kept in the address like a list's), the
 * totals, the column chart and the map; a failed usage load shows its message in place of the chart
 * (spec §8). Issue 10: the chart's data as CSV.
 */
export function UsageDashboard({ title, description, projectId, fileLabel, children }: UsageDashboardProps) {
  const { t } = useTranslation('dashboard');
  const { t: tu } = useTranslation('ui');
  const [year] = useState(() => currentYearDays(new Date()));
  const list = useListState({ sort: 'period', direction: 'asc', sortFields: ['period'], filterKeys: ['fromDate', 'toDate', 'scope'], filters: year });
  const { filters } = list.state;
  const scope = isScope(filters['scope']) ? filters['scope'] : undefined;
  const range = { fromDate: filters['fromDate'] ?? year.fromDate, toDate: filters['toDate'] ?? year.toDate };
  const usageFilters: UsageFilters = { ...range, scope };
  const periods = useUsagePeriods(projectId, usageFilters);
  const locations = useUsageLocations(projectId, usageFilters);

  const active: ActiveFilter[] = scope ? [{ key: 'scope', label: t('filters.scope'), value: scope }] : [];
  const download = () => {
    if (periods.data)
      browser.save(new Blob([usageCsv(periods.data)], { type: 'text/csv' }), `usage-${fileLabel}-${range.fromDate}-${range.toDate}.csv`);
  };

  return (
    <PageFrame
      title={title}
      description={description}
      actions={
        <Button variant="default" leftSection={<IconDownload size={16} aria-hidden="true" />} onClick={download} disabled={!periods.data}>
          {t('chart.downloadCsv')}
        </Button>
      }
    >
      <Paper withBorder className={listClasses.listPaper}>
        <FilterBar active={active} onRemove={(key) => list.setFilter(key, '')}>
          <DateRangeFilter fromDate={range.fromDate} toDate={range.toDate} defaults={year} onChange={list.setFilter} rules={USAGE_RANGE} />
          <Select
            label={t('filters.scope')}
            placeholder={tu('list.any')}
            data={SCOPES.map((s) => ({ value: s, label: s }))}
            value={scope ?? null}
            onChange={(value) => list.setFilter('scope', value ?? '')}
            clearable
            clearButtonProps={{ 'aria-label': tu('list.clearFilter', { label: t('filters.scope') }) }}
            allowDeselect
          />
        </FilterBar>
      </Paper>

      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md" aria-label={t('totals.label')} component="section">
        <Total label={t('totals.issued')} value={periods.data?.totals.issued} />
        <Total label={t('totals.sum')} value={periods.data?.totals.sum} />
      </SimpleGrid>

      <Paper withBorder className={classes.panel} component="section" aria-labelledby="usage-chart-title">
        <Title order={2} size="h4" id="usage-chart-title" mb="sm">
          {t('chart.title')}
        </Title>
        {periods.error ? (
          <ErrorAlert title={t('chart.failed')} error={periods.error} onRetry={() => void periods.refetch()} />
        ) : periods.data ? (
          <UsageChart usage={periods.data} range={range} projectId={projectId} />
        ) : (
          <Skeleton height={400} />
        )}
      </Paper>

      <Paper withBorder className={classes.panel} component="section" aria-labelledby="usage-map-title">
        <Title order={2} size="h4" id="usage-map-title" mb="sm">
          {t('map.title')}
        </Title>
        {locations.error ? (
          <ErrorAlert title={t('map.failed')} error={locations.error} onRetry={() => void locations.refetch()} />
        ) : locations.data ? (
          <UsageMap locations={locations.data.locations} range={range} projectId={projectId} />
        ) : (
          <Skeleton height={420} />
        )}
      </Paper>
      {children?.(usageFilters)}
    </PageFrame>
  );
}

function Total({ label, value }: { label: string; value: number | undefined }) {
  return (
    <Paper withBorder className={classes.panel}>
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
        {value === undefined ? <Skeleton height={34} width={120} /> : <Text className={classes.total}>{formatNumber(value)}</Text>}
      </Stack>
    </Paper>
  );
}
