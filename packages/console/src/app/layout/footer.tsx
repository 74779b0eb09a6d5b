import { Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n/react.tsx';
import classes from './layout.module.css';

/** spec §2 "Layout": the footer with the copyright line. */
export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className={classes.footer}>
      <Text size="sm" c="dimmed">
        {t('layout.copyright', { year: new Date().getFullYear() })}
      </Text>
    </footer>
  );
}
