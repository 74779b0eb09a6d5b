import { projectOfPermission, type Account } from '@latchkey/domain';
import { Badge, Button, Group, Text, TextInput } from '@mantine/core';
import { IconPlus, IconRobot, IconSearch, IconSettings, IconUser } from '@tabler/icons-react';
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
import { useAccounts } from '../api/use-accounts.ts';
import classes from '../components/accounts.module.css';
import '../texts.ts';

// spec §9: accounts by email ascending; spec §2: filters email and active.
const LIST_DEFAULTS: ListDefaults = { sort: 'email', direction: 'asc', sortFields: ['email'], filterKeys: ['email', 'active'] };

/** A permission as the list shows it: its scope, `*` as "all" (spec §2), a global one marked. */
function scopeText(permission: string, all: string, global: string): string {
  const scope = permission.split(':')[2] ?? permission;
  const shown = scope === '*' ? all : scope;
  return projectOfPermission(permission) === null ? `${shown} (${global})` : shown;
}

/** spec §2 "Accounts list". */
export default function AccountsPage() {
  const { t } = useTranslation('accounts');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const list = useListState(LIST_DEFAULTS);
  const accounts = useAccounts(project.id, list.state);
  const { filters } = list.state;
  const setFilter = list.setFilter;
  const yesNo = useYesNoText();
  const [email, setEmail] = useFilterText(filters['email'] ?? '', (value) => setFilter('email', value));

  const columns = useMemo<Column<Account>[]>(
    () => [
      {
        key: 'type',
        header: t('list.type'),
        shrink: true,
        render: (a) => (
          <span
            className={classes.typeIcon}
            role="img"
            title={a.isServiceAccount ? t('list.serviceAccount') : t('list.user')}
            aria-label={a.isServiceAccount ? t('list.serviceAccount') : t('list.user')}
          >
            {a.isServiceAccount ? <IconRobot size={18} aria-hidden="true" /> : <IconUser size={18} aria-hidden="true" />}
          </span>
        ),
      },
      {
        key: 'email',
        header: t('list.email'),
        sortField: 'email',
        render: (a) => (
          <Group gap="xs" wrap="nowrap">
            <Text size="sm" fw={500} className={classes.accountName}>
              {a.email ?? a.name}
            </Text>
            {a.invited ? (
              <Badge size="sm" variant="light" color="gray">
                {t('list.invited')}
              </Badge>
            ) : null}
          </Group>
        ),
      },
      {
        key: 'permissions',
        header: t('list.permissions'),
        hiddenOnPhone: true,
        render: (a) => (
          <span className={classes.permissions}>
            {a.permissions.map((p) => (
              <Badge key={p} size="sm" variant="outline" color="gray" tt="none">
                {scopeText(p, t('list.all'), t('list.global'))}
              </Badge>
            ))}
          </span>
        ),
      },
      {
        key: 'active',
        header: t('list.active'),
        shrink: true,
        render: (a) => <StatusBadge tone={a.active ? 'positive' : 'neutral'}>{a.active ? tu('list.yes') : tu('list.no')}</StatusBadge>,
      },
      {
        key: 'manage',
        header: t('list.manage'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (a) => (
          <Button
            component={Link}
            to={routes.accountSettings(project.id, a.id)}
            aria-label={t('list.manageOf', { name: a.email ?? a.name })}
            variant="subtle"
            size="compact-sm"
            leftSection={<IconSettings size={16} aria-hidden="true" />}
          >
            {t('list.manage')}
          </Button>
        ),
      },
    ],
    [t, tu, project.id],
  );

  const active: ActiveFilter[] = [];
  if (filters['email']) active.push({ key: 'email', label: t('list.email'), value: filters['email'] });
  const activeText = yesNo(filters['active']);
  if (activeText) active.push({ key: 'active', label: t('list.active'), value: activeText });

  return (
    <PageFrame
      title={tc('pages.projectAccounts')}
      description={t('list.intro')}
      actions={
        // spec §2: the add buttons only while the project is enabled.
        project.enabled ? (
          <>
            <Button component={Link} to={routes.accountCreate(project.id)} leftSection={<IconPlus size={18} aria-hidden="true" />}>
              {t('list.addUser')}
            </Button>
            <Button
              component={Link}
              variant="default"
              to={routes.serviceAccountCreate(project.id)}
              leftSection={<IconRobot size={18} aria-hidden="true" />}
            >
              {t('list.addServiceAccount')}
            </Button>
          </>
        ) : null
      }
    >
      <DataList
        label={t('list.label')}
        list={list}
        result={accounts}
        columns={columns}
        rowKey={(a) => a.id}
        activeFilters={active}
        filters={
          <>
            <TextInput
              label={t('list.email')}
              autoComplete="off"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
            />
            <YesNoFilter label={t('list.active')} value={filters['active']} onChange={(value) => setFilter('active', value)} />
          </>
        }
      />
    </PageFrame>
  );
}
