import { Group, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { routes } from '../../lib/routes.ts';
import classes from './layout.module.css';

/** The product name and mark, linking home. */
export function Brand() {
  const { t } = useTranslation();
  return (
    <Link to={routes.projectList()} className={classes.brand} aria-label={t('app.home')}>
      <Group gap={8} wrap="nowrap">
        <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false">
          <rect width="32" height="32" rx="8" className={classes.brandMark} />
          <circle cx="16" cy="13" r="5" fill="none" stroke="#fff" strokeWidth="3" />
          <rect x="14.5" y="17" width="3" height="8" rx="1" fill="#fff" />
        </svg>
        <Text component="span" fw={800} size="lg" className={classes.brandName}>
          {t('app.name')}
        </Text>
      </Group>
    </Link>
  );
}
