import { guards } from '@latchkey/domain';
import { Button, SimpleGrid, Skeleton, Switch, Text } from '@mantine/core';
import { IconChartBar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { routes } from '../../../lib/routes.ts';
import { usePermission } from '../../../lib/use-permission.ts';
import { api } from '../../../lib/api/index.ts';
import { useSessionAccount } from '../../../lib/session.ts';
import { useApiQuery } from '../../../lib/use-api.ts';
import { AddProjectCard } from '../components/add-project-card.tsx';
import { EmptyProjects } from '../components/empty-projects.tsx';
import { ProjectCard } from '../components/project-card.tsx';
import classes from './project-list-page.module.css';

const GRID_COLUMNS = { base: 1, xs: 2, md: 3, xl: 4 };

/** spec §2 "Project list": an add-project card, then the enabled projects; closed ones on request. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  // spec §7: GET accounts/{accountId}/projects, the projects of the signed-in account.
  const projects = useApiQuery(api.listAccountProjects, { params: { accountId: useSessionAccount().id } });
  const [showClosed, setShowClosed] = useState(false);

  // Issue 10: an account holding glb::usage reaches the dashboard of every project from here.
  const globalUsage = usePermission(guards.globalUsage);
  const toggle = (
    <>
      {globalUsage ? (
        <Button component={Link} to={routes.globalUsage()} variant="default" leftSection={<IconChartBar size={16} aria-hidden="true" />}>
          {t('pages.globalUsage')}
        </Button>
      ) : null}
      <Switch label={t('projects.showClosed')} checked={showClosed} onChange={(event) => setShowClosed(event.currentTarget.checked)} />
    </>
  );

  if (projects.isPending) {
    return (
      <PageFrame title={t('pages.projectList')}>
        <SimpleGrid cols={GRID_COLUMNS} aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={96} radius="lg" />
          ))}
        </SimpleGrid>
      </PageFrame>
    );
  }

  if (projects.isError) {
    return (
      <PageFrame title={t('pages.projectList')}>
        <ErrorAlert title={t('projects.loadFailed')} error={projects.error} onRetry={() => void projects.refetch()} />
      </PageFrame>
    );
  }

  if (projects.data.length === 0) {
    return (
      <PageFrame title={t('pages.projectList')}>
        <EmptyProjects />
      </PageFrame>
    );
  }

  const shown = projects.data.filter((p) => p.enabled || showClosed);
  const allClosed = projects.data.every((p) => !p.enabled);

  return (
    <PageFrame title={t('pages.projectList')} actions={toggle}>
      <SimpleGrid cols={GRID_COLUMNS} spacing="lg" component="ul" className={classes.grid}>
        <li>
          <AddProjectCard />
        </li>
        {shown.map((project) => (
          <li key={project.id}>
            <ProjectCard project={project} />
          </li>
        ))}
      </SimpleGrid>
      {allClosed && !showClosed ? <Text c="dimmed">{t('projects.noOpenProjects')}</Text> : null}
    </PageFrame>
  );
}
