import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlus, IconRocket } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { routes } from '../../../lib/routes.ts';
import classes from './empty-projects.module.css';

/** A signed-in account without any project yet: what a project is and how to start. */
export function EmptyProjects() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" className={classes.root}>
      <Stack align="center" gap="md">
        <ThemeIcon size={64} radius="xl" variant="light" aria-hidden="true">
          <IconRocket size={34} stroke={1.75} />
        </ThemeIcon>
        <Title order={2} size="h3" ta="center">
          {t('projects.emptyTitle')}
        </Title>
        <Text ta="center" c="dimmed" maw={520}>
          {t('projects.emptyText')}
        </Text>
        <Button component={Link} to={routes.projectCreate()} size="md" leftSection={<IconPlus size={18} aria-hidden="true" />}>
          {t('projects.add')}
        </Button>
      </Stack>
    </Paper>
  );
}
