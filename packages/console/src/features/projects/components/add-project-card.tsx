import { Card, Group, Text, ThemeIcon } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { routes } from '../../../lib/routes.ts';
import classes from './project-card.module.css';

/** spec §2 "Project list": the first card adds a project. */
export function AddProjectCard() {
  const { t } = useTranslation();
  return (
    <Card component={Link} to={routes.projectCreate()} className={`${classes.card} ${classes.add}`}>
      <Group wrap="nowrap" gap="md" align="center">
        <ThemeIcon size={48} radius="md" variant="light" aria-hidden="true">
          <IconPlus size={26} stroke={2} />
        </ThemeIcon>
        <Text fw={600} size="lg">
          {t('projects.add')}
        </Text>
      </Group>
    </Card>
  );
}
