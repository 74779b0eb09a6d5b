import { Anchor, Paper, Skeleton, Table, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { routes } from '../../../lib/routes.ts';
import { useUsageProjects, type UsageFilters } from '../api/use-usage.ts';
import classes from '../components/dashboard.module.css';
import { UsageDashboard } from '../components/usage-dashboard.tsx';
import { formatNumber } from '../../../lib/format-number.ts';

/** Issue 10: the dashboard over every project, for an account holding `glb::usage` (docs/decisions/0020). */
export default function GlobalUsagePage() {
  const { t } = useTranslation('dashboard');
  const { t: tc } = useTranslation();
  return (
    <UsageDashboard title={tc('pages.globalUsage')} description={t('globalIntro')} projectId={null} fileLabel="all-projects">
      {(filters) => <TopProjects filters={filters} />}
    </UsageDashboard>
  );
}

/** The projects with the most events in the range, each linking to its own dashboard. */
function TopProjects({ filters }: { filters: UsageFilters }) {
  const { t } = useTranslation('dashboard');
  const projects = useUsageProjects(filters);
  return (
    <Paper withBorder className={classes.panel} component="section" aria-labelledby="top-projects-title">
      <Title order={2} size="h4" id="top-projects-title" mb="sm">
        {t('projects.title')}
      </Title>
      {projects.error ? (
        <ErrorAlert title={t('chart.failed')} error={projects.error} onRetry={() => void projects.refetch()} />
      ) : !projects.data ? (
        <Skeleton height={120} />
      ) : projects.data.projects.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('projects.none')}
        </Text>
      ) : (
        <div className={classes.tableScroll}>
          <Table striped withTableBorder aria-label={t('projects.label')} className={classes.dataTable}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('projects.project')}</Table.Th>
                <Table.Th scope="col" className={classes.number}>
                  {t('totals.issued')}
                </Table.Th>
                <Table.Th scope="col" className={classes.number}>
                  {t('totals.sum')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {projects.data.projects.map((p) => (
                <Table.Tr key={p.projectId}>
                  <Table.Th scope="row">
                    <Anchor component={Link} to={routes.projectDashboard(p.projectId)}>
                      {p.name}
                    </Anchor>
                  </Table.Th>
                  <Table.Td className={classes.number}>{formatNumber(p.issued)}</Table.Td>
                  <Table.Td className={classes.number}>{formatNumber(p.sum)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
    </Paper>
  );
}
