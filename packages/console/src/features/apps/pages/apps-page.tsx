import { APP_LIST_DEFAULT_SORT, type Application } from '@latchkey/domain';
import { Button, Text, TextInput } from '@mantine/core';
import { IconPlus, IconSearch, IconSettings } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import type { ActiveFilter } from '../../../components/list/filter-bar.tsx';
import { useYesNoText, YesNoFilter } from '../../../components/list/yes-no-filter.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import type { ListDefaults } from '../../../lib/list-state/list-state.ts';
import { useFilterText } from '../../../lib/list-state/use-filter-text.ts';
import { useListState } from '../../../lib/list-state/use-list-state.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { useApps } from '../api/use-apps.ts';
import classes from '../components/apps.module.css';
import '../texts.ts';

// spec §9: apps are sorted by name ascending by default; spec §2: filters name and enabled.
const LIST_DEFAULTS: ListDefaults = {
  ...APP_LIST_DEFAULT_SORT,
  sortFields: ['name', 'platformCode', 'enabled'],
  filterKeys: ['name', 'enabled'],
};

/** spec §2 "Applications list". */
export default function AppsPage() {
  const { t } = useTranslation('apps');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const list = useListState(LIST_DEFAULTS);
  const apps = useApps(project.id, list.state);
  const { filters } = list.state;
  const setFilter = list.setFilter;
  const [name, setName] = useFilterText(filters['name'] ?? '', (value) => setFilter('name', value));
  const yesNo = useYesNoText();

  const columns = useMemo<Column<Application>[]>(
    () => [
      {
        key: 'name',
        header: t('list.name'),
        sortField: 'name',
        render: (app) => (
          <Text size="sm" fw={500} className={classes.appName}>
            {app.name}
          </Text>
        ),
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
        render: (app) => (
          <Button
            component={Link}
            to={routes.appSettings(project.id, app.id)}
            // The visible "Settings" starts the name, which says whose settings they are.
            aria-label={t('list.settingsOf', { name: app.name })}
            variant="subtle"
            size="compact-sm"
            leftSection={<IconSettings size={16} aria-hidden="true" />}
            classNames={{ section: classes.settingsIcon }}
          >
            <span className={classes.settingsLabel}>{t('list.settings')}</span>
          </Button>
        ),
      },
    ],
    [t, tu, project.id],
  );

  const active: ActiveFilter[] = [];
  if (filters['name']) active.push({ key: 'name', label: t('list.name'), value: filters['name'] });
  const enabledText = yesNo(filters['enabled']);
  if (enabledText) active.push({ key: 'enabled', label: t('list.enabled'), value: enabledText });

  return (
    <PageFrame
      title={tc('pages.projectApps')}
      description={t('list.intro')}
      actions={
        // spec §2: the add button only while the project is enabled.
        project.enabled ? (
          <Button component={Link} to={routes.appCreate(project.id)} leftSection={<IconPlus size={18} aria-hidden="true" />}>
            {t('list.add')}
          </Button>
        ) : null
      }
    >
      <DataList
        label={t('list.label')}
        list={list}
        result={apps}
        columns={columns}
        rowKey={(app) => app.id}
        activeFilters={active}
        filters={
          <>
            <TextInput
              label={t('list.name')}
              autoComplete="off"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <YesNoFilter label={t('list.enabled')} value={filters['enabled']} onChange={(value) => setFilter('enabled', value)} />
          </>
        }
      />
    </PageFrame>
  );
}
