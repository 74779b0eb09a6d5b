import { buildPath } from '@latchkey/domain';
import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Link } from 'react-router';
import { parentOf, routeTable, routes, type RouteName } from '../../lib/routes.ts';
import { useCurrentRoute } from '../route-handle.ts';
import classes from './layout.module.css';

interface Crumb {
  label: string;
  to?: string;
}

interface BreadcrumbsProps {
  projectName: string | undefined;
  /** What the page shows, when it names it (an application): the last crumb, after the page's parents. */
  pageLabel?: string | null;
}

/** spec §2 "Layout": Projects > project name > page (an entity's page ends with the entity's name). */
export function Breadcrumbs({ projectName, pageLabel = null }: BreadcrumbsProps) {
  const { t } = useTranslation();
  const { handle, params } = useCurrentRoute();
  if (!handle) return null;

  const crumbs: Crumb[] = [{ label: t('pages.projectList'), to: routes.projectList() }];
  const projectId = params['project'];
  if (handle.route && routeTable[handle.route].scope === 'project' && projectId && projectName) {
    crumbs.push({ label: projectName, to: routes.projectDashboard(projectId) });
  }
  const parents: RouteName[] = [];
  let parent: RouteName | null = handle.route ? parentOf(handle.route) : null;
  while (parent) {
    parents.unshift(parent);
    parent = parentOf(parent);
  }
  for (const name of parents) {
    crumbs.push({ label: t(`pages.${routeTable[name].title}`), to: buildPath(routeTable[name].path, paramsOf(params)) });
  }
  if (handle.route !== 'projectList') crumbs.push({ label: pageLabel ?? t(`pages.${handle.title}`) });

  const last = crumbs.length - 1;
  return (
    <nav aria-label={t('layout.breadcrumb')} className={classes.breadcrumbs}>
      <MantineBreadcrumbs separatorMargin={6} classNames={{ root: classes.breadcrumbList }}>
        {crumbs.map((crumb, index) =>
          index === last || !crumb.to ? (
            <Text key={crumb.label} size="sm" fw={500} aria-current="page" className={classes.crumb}>
              {crumb.label}
            </Text>
          ) : (
            <Anchor key={crumb.to} component={Link} to={crumb.to} size="sm" className={classes.crumb}>
              {crumb.label}
            </Anchor>
          ),
        )}
      </MantineBreadcrumbs>
    </nav>
  );
}

function paramsOf(params: Record<string, string | undefined>): Record<string, string> {
  const defined: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) if (value !== undefined) defined[key] = value;
  return defined;
}
