import { Group } from '@mantine/core';
import { Outlet } from 'react-router';
import { Brand } from './brand.tsx';
import { ColorSchemeToggle } from './color-scheme-toggle.tsx';
import { DocumentTitle } from './document-title.tsx';
import { Footer } from './footer.tsx';
import classes from './layout.module.css';

/** The frame of the sign-in pages: no account is loaded there. */
export function PublicLayout() {
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
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
