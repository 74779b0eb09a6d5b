import { applicationList, type Application } from '@latchkey/domain';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CellText } from '../../../components/list/cell-text.tsx';
import { AddLinks } from '../../../components/list/add-links.tsx';
import { DataList } from '../../../components/list/data-list.tsx';
import { RowLink } from '../../../components/list/row-link.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { useDeclaredList } from '../../../components/list/declared-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { listCalls } from '../../../lib/list-state/declared-calls.ts';
import classes from '../components/apps.module.css';

/** spec §7: GET projects/{project}/apps with sort, direction, offset, limit and the declared filters. */
const useApps = listCalls({ declared: applicationList, list: api.listApps });

/** spec §2 "Applications list". */
export default function AppsPage() {
  const { t } = useTranslation('apps');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // spec §9: apps by name ascending; spec §2: filters name and enabled (domain's applicationList; not its platformCode).
  const { list, filterBar } = useDeclaredList(applicationList, {
    name: { label: t('list.name'), search: true },
    enabled: { label: t('list.enabled') },
  });
  const apps = useApps(project.id, list.state);

  const columns = useMemo<Column<Application>[]>(
    () => [
      {
        key: 'name',
        header: t('list.name'),
        sortField: 'name',
        render: (app) => <CellText value={app.name} className={classes.appName} strong />,
      },
      {
        key: 'type',
        header: t('list.type'),
        sortField: 'platformCode',
        shrink: true,
        hiddenOnPhone: true,
        render: (app) => <code className={classes.platform}>{app.platformCode}</code>,
      },
      {
        key: 'enabled',
        header: t('list.enabled'),
        sortField: 'enabled',
        shrink: true,
        render: (app) => <StatusBadge tone={app.enabled ? 'positive' : 'neutral'}>{app.enabled ? tu('list.yes') : tu('list.no')}</StatusBadge>,
      },
      {
        key: 'settings',
        header: t('list.settings'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        // The visible "Settings" starts the name, which says whose settings they are.
        render: (app) => (
          <RowLink to={routes.appSettings(project.id, app.id)} label={t('list.settings')} name={t('list.settingsOf', { name: app.name })} />
        ),
      },
    ],
    [t, tu, project.id],
  );

  return (
    <PageFrame
      title={tc('pages.projectApps')}
      description={t('list.intro')}
      actions={<AddLinks links={[{ to: routes.appCreate(project.id), label: t('list.add') }]} />}
    >
      <DataList label={t('list.label')} list={list} result={apps} columns={columns} rowKey={(app) => app.id} filters={filterBar} />
    </PageFrame>
  );
}
