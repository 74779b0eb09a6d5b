import { CHART_HEIGHT, type UsageKey, type UsagePeriods } from '@latchkey/domain';
import { Anchor, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link, useNavigate } from 'react-router';
import { formatUtcDate } from '../../../lib/format-date.ts';
import { auditLinkOfPeriod, CHART_KEYS, countOf, periodLabel } from '../usage-data.ts';
import classes from './dashboard.module.css';
import { DataTableToggle } from './data-table-toggle.tsx';
import { ColumnChart, type ColumnSeries } from './column-chart.tsx';
import { formatNumber } from '../../../lib/format-number.ts';

/** One colour a key, the same in both schemes (Mantine's palette at shade 6; readable on white and on dark). */
const KEY_COLORS: Record<UsageKey, string> = {
  issued: '#12b886',
  oidc: '#4c6ef5',
  jwt: '#7950f2',
  'dvs-auth': '#fd7e14',
  'dvs-verify': '#fab005',
  'reg-code': '#e64980',
};

interface UsageChartProps {
  usage: UsagePeriods;
  /** The range shown (days, UTC), for the chart's description. */
  range: { fromDate: string; toDate: string };
  /** The project whose audit log a column opens; null (every project): columns open nothing. */
  projectId: string | null;
}

/**
 * spec §2 "Dashboard": a column chart (height 400) of the periods, `issued` and the event keys as
 * series (registrations beside the stacked events). A column opens the audit log at those events
 * (issue 10). The same data as a table, for a screen reader and for reading exact numbers.
 */
export function UsageChart({ usage, range, projectId }: UsageChartProps) {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const labels = useMemo(() => usage.periods.map((p) => periodLabel(p.period, usage.periodType)), [usage]);

  const series = useMemo<ColumnSeries[]>(
    () =>
      CHART_KEYS.map((key) => ({
        name: t(`keys.${key}`),
        colour: KEY_COLORS[key],
        // Registrations stand beside the events, which stack: the column's height is the period's event sum.
        stack: key === 'issued' ? 'issued' : 'events',
        values: usage.periods.map((p) => countOf(p.keys, key)),
      })),
    [usage, t],
  );

  const periodName = t(`chart.periods.${usage.periodType}`);
  return (
    <>
      <ColumnChart
        categories={labels}
        series={series}
        height={CHART_HEIGHT}
        label={t('chart.label', { period: periodName, from: formatUtcDate(range.fromDate), to: formatUtcDate(range.toDate) })}
        keyboardHint={t(projectId ? 'chart.keyboardOpens' : 'chart.keyboard')}
        onSelect={
          projectId
            ? (seriesIndex, dataIndex) => {
                const key = CHART_KEYS[seriesIndex];
                const period = usage.periods[dataIndex];
                if (key && period) void navigate(auditLinkOfPeriod(projectId, period.period, usage.periodType, key));
              }
            : undefined
        }
      />
      <DataTableToggle
        label={t('table.periodsLabel', { period: periodName })}
        note={
          <Text size="xs" c="dimmed">
            {projectId ? t('chart.clickHint') : null}
          </Text>
        }
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('table.period')}</Table.Th>
            {CHART_KEYS.map((key) => (
              <Table.Th key={key} scope="col" className={classes.number}>
                {t(`keys.${key}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {usage.periods.map((p, i) => (
            <Table.Tr key={p.period}>
              <Table.Th scope="row" className={classes.period}>
                {labels[i]}
              </Table.Th>
              {CHART_KEYS.map((key) => {
                const count = countOf(p.keys, key);
                return (
                  <Table.Td key={key} className={classes.number}>
                    {projectId && count > 0 ? (
                      <Anchor
                        component={Link}
                        to={auditLinkOfPeriod(projectId, p.period, usage.periodType, key)}
                        aria-label={t('table.openAudit', { what: `${t(`keys.${key}`)}, ${labels[i] ?? ''}` })}
                      >
                        {formatNumber(count)}
                      </Anchor>
                    ) : (
                      formatNumber(count)
                    )}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </DataTableToggle>
    </>
  );
}
