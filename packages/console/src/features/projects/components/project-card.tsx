import type { ProjectSummary } from '@latchkey/domain';
import { Badge, Card, Group, Text } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { routes } from '../../../lib/routes.ts';
import { ProjectLogo } from './project-logo.tsx';
import classes from './project-card.module.css';

/** A project in the list: logo and name, linking to its dashboard. */
export function ProjectCard({ project }: { project: ProjectSummary }) {
  const { t } = useTranslation();
  const closedId = useId();
  return (
    <Card
      component={Link}
      to={routes.projectDashboard(project.id)}
      className={classes.card}
      aria-label={project.name}
      aria-describedby={project.enabled ? undefined : closedId}
      data-closed={project.enabled ? undefined : true}
    >
      <Group wrap="nowrap" gap="md" align="center">
        <ProjectLogo name={project.name} logoUrl={project.logoUrl} />
        <div className={classes.body}>
          <Text fw={600} size="lg" className={classes.name}>
            {project.name}
          </Text>
          {project.enabled ? null : (
            <Badge id={closedId} color="gray" variant="light" mt={6}>
              {t('projects.closed')}
            </Badge>
          )}
        </div>
      </Group>
    </Card>
  );
}
