import { Group } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { CenteredLoader } from '../../components/centered-loader.tsx';
import { Brand } from './brand.tsx';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { DocumentTitle } from './document-title.tsx';
import { Footer } from './footer.tsx';
import classes from './layout.module.css';
import '@mantine/core/styles/ActionIcon.layer.css';

/** The frame of the sign-in pages: no account is loaded there. */
export function PublicLayout() {
  const { t } = useTranslation();
  return (
    <div className={classes.publicRoot}>
      <DocumentTitle />
      <header className={classes.publicHeader}>
        <Group justify="space-between" h="100%" px="md">
          <Brand />
          <ColorSchemeToggle />
        </Group>
      </header>
      <main className={classes.publicMain}>
        <Suspense fallback={<CenteredLoader label={t('common.loading')} />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
