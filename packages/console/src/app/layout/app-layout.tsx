import { guards } from '@latchkey/domain';
import { AppShell } from '@mantine/core';
import { useState, type MouseEvent } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Outlet } from 'react-router';
import { skipToken } from '@tanstack/react-query';
import { api } from '../../lib/api/index.ts';
import { useApiQuery } from '../../lib/use-api.ts';
import { PageLabelContext } from '../../lib/page-label.ts';
import { usePermission } from '../../lib/use-permission.ts';
import { useCurrentProjectId } from '../../lib/project-context.ts';
import { routeTable } from '../../lib/routes.ts';
import { useCurrentRoute } from '../route-handle.ts';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { DocumentTitle } from './document-title.tsx';
import { Footer } from './footer.tsx';
import { SideMenu } from './side-menu.tsx';
import { TopBar } from './top-bar.tsx';
import classes from './layout.module.css';

const HEADER_HEIGHT = 60;
const NAVBAR_WIDTH = 260;

/**
 * Focuses the page itself. The address keeps its hash: the list pages hold their filters there.
 */
function skipToMain(event: MouseEvent<HTMLAnchorElement>) {
  event.preventDefault();
  document.getElementById('main')?.focus();
}

/** spec §2 "Layout": top bar, side menu inside projects, breadcrumbs, the page, footer. */
export function AppLayout() {
  const { t } = useTranslation();
  const { handle } = useCurrentRoute();
  const inProject = handle?.route ? routeTable[handle.route].scope === 'project' : false;
  const routeProjectId = useCurrentProjectId();
  const projectId = inProject ? routeProjectId : null;
  const member = usePermission(guards.projectMember);
  // The same query as the project scope's: one request, shared.
  const project = useApiQuery(api.getProject, member && projectId ? { params: { project: projectId } } : skipToken);
  const projectName = project.data?.name;
  const withNavbar = projectId !== null && project.data !== undefined;
  // What the page shows (e.g. an application's name), named by the page itself (usePageLabel).
  const [pageLabel, setPageLabel] = useState<string | null>(null);

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT }}
      navbar={withNavbar ? { width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: true } } : undefined}
      padding="lg"
    >
      <DocumentTitle projectName={projectName} pageLabel={pageLabel} />
      {/* WCAG 2.4.1: the first stop of the keyboard goes past the top bar and the menu to the page. */}
      <a href="#main" className={classes.skipLink} onClick={skipToMain}>
        {t('layout.skipToContent')}
      </a>
      <AppShell.Header className={classes.header}>
        <TopBar projectId={projectId} projectName={projectName} showProjectNav={withNavbar} current={handle?.route ?? null} />
      </AppShell.Header>
      {withNavbar && projectId ? (
        <AppShell.Navbar aria-label={t('layout.projectNavigation')} className={classes.navbar}>
          <SideMenu projectId={projectId} current={handle?.route ?? null} />
        </AppShell.Navbar>
      ) : null}
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        <div className={classes.column}>
          <Breadcrumbs projectName={projectName} pageLabel={pageLabel} />
          <div className={classes.content}>
            <PageLabelContext value={setPageLabel}>
              <Outlet />
            </PageLabelContext>
          </div>
        </div>
      </AppShell.Main>
      <div className={classes.footerOffset}>
        <Footer />
      </div>
    </AppShell>
  );
}
