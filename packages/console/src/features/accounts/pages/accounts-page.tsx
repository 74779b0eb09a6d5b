import { accountList, projectOfPermission, type Account } from '@latchkey/domain';
import { Badge, Group, Text } from '@mantine/core';
import { IconRobot, IconUser } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
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
import classes from '../components/accounts.module.css';

/** A permission as the list shows it: its scope, `*` as "all" (spec §2), a global one marked. */
function scopeText(permission: string, all: string, global: string): string {
  const scope = permission.split(':')[2] ?? permission;
  const shown = scope === '*' ? all : scope;
  return projectOfPermission(permission) === null ? `${shown} (${global})` : shown;
}

/** spec §7: GET projects/{project}/accounts with email and active (spec §9: email ascending). */
const useAccounts = listCalls({ declared: accountList, list: api.listAccounts });

/** spec §2 "Accounts list". */
export default function AccountsPage() {
  const { t } = useTranslation('accounts');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // spec §9: accounts by email ascending; spec §2: filters email and active (domain's accountList).
  const { list, filterBar } = useDeclaredList(accountList, { email: { label: t('list.email'), search: true }, active: { label: t('list.active') } });
  const accounts = useAccounts(project.id, list.state);

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
          <RowLink to={routes.accountSettings(project.id, a.id)} label={t('list.manage')} name={t('list.manageOf', { name: a.email ?? a.name })} />
        ),
      },
    ],
    [t, tu, project.id],
  );

  return (
    <PageFrame
      title={tc('pages.projectAccounts')}
      description={t('list.intro')}
      actions={
        <AddLinks
          links={[
            { to: routes.accountCreate(project.id), label: t('list.addUser') },
            { to: routes.serviceAccountCreate(project.id), label: t('list.addServiceAccount'), icon: <IconRobot size={18} aria-hidden="true" /> },
          ]}
        />
      }
    >
      <DataList label={t('list.label')} list={list} result={accounts} columns={columns} rowKey={(a) => a.id} filters={filterBar} />
    </PageFrame>
  );
}
