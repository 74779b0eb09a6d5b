import { Button, Menu, Text } from '@mantine/core';
import { IconCheck, IconChevronDown, IconPlus } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { routes } from '../../lib/routes.ts';
import { api } from '../../lib/api/index.ts';
import { useSessionAccount } from '../../lib/session.ts';
import { useApiQuery } from '../../lib/use-api.ts';
import classes from './layout.module.css';

interface ProjectSwitcherProps {
  currentProjectId: string | null;
  currentProjectName: string | undefined;
}

/** spec §2 "Layout": switch to another enabled project, or create one. */
export function ProjectSwitcher({ currentProjectId, currentProjectName }: ProjectSwitcherProps) {
  const { t } = useTranslation();
  const account = useSessionAccount();
  const projects = useApiQuery(api.listAccountProjects, { params: { accountId: account.id } });
  const enabled = (projects.data ?? []).filter((p) => p.enabled);
  const listed = enabled.find((p) => p.id === currentProjectId);
  const label = currentProjectName ?? listed?.name ?? t('layout.selectProject');

  return (
    <Menu position="bottom-start" width={280} shadow="md" withInitialFocusPlaceholder={false} withinPortal={false}>
      <Menu.Target>
        <Button
          variant="default"
          aria-label={t('layout.switchProject', { project: label })}
          rightSection={<IconChevronDown size={16} aria-hidden="true" />}
          className={classes.switcher}
        >
          <span className={classes.switcherLabel}>{label}</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('layout.projects')}</Menu.Label>
        {enabled.length === 0 ? (
          <Text size="sm" px="sm" py={6} c="dimmed">
            {t('layout.noProjects')}
          </Text>
        ) : null}
        {enabled.map((project) => (
          <Menu.Item
            key={project.id}
            component={Link}
            to={routes.projectDashboard(project.id)}
            rightSection={project.id === currentProjectId ? <IconCheck size={16} aria-hidden="true" /> : null}
            aria-current={project.id === currentProjectId ? 'true' : undefined}
            classNames={{ itemLabel: classes.menuItemLabel }}
            title={project.name}
          >
            <span className={classes.menuProjectName}>{project.name}</span>
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item component={Link} to={routes.projectCreate()} leftSection={<IconPlus size={16} aria-hidden="true" />}>
          {t('layout.createProject')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
