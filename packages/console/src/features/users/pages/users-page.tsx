import { endUserList, type EndUser } from '@latchkey/domain';
import { Group } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { useDeclaredList } from '../../../components/list/declared-filters.tsx';
import { ExportMenu } from '../../../components/list/export-menu.tsx';
import { RowLink } from '../../../components/list/row-link.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import classes from '../components/users.module.css';
import { MigrationActions, UserImports } from '../components/user-imports.tsx';
import { usePermission } from '../../../lib/use-permission.ts';
import { guards } from '@latchkey/domain';

/** GET projects/{project}/users with the declared filters, sort and paging; and its export (issue 24). */
const { useList: useUsers, exportFile: exportUsers } = rangedListCalls({
  declared: endUserList,
  name: 'users',
  list: api.listEndUsers,
  export: api.exportEndUsers,
});

/** Issue 24 "Users in the console": the people who sign in through the project's issuer. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // The identity users sign in with: an email address, or the project's user ID (spec §3 identityType).
  const identityLabel = project.identityType === 'email' ? t('list.email') : project.verificationOptions.identityTypeLabel || t('list.userId');
  // Every user by default, newest first (docs/decisions/0038); the filters are the domain's endUserList.
  const { list, filterBar } = useDeclaredList(endUserList, {
    identity: { label: identityLabel, search: true },
    status: {
      label: t('list.status'),
      options: [
        { value: 'active', label: t('list.active') },
        { value: 'blocked', label: t('list.blocked') },
      ],
    },
  });
  const users = useUsers(project.id, list.state);
  // docs/decisions/0052: importing and the migration export create and hand out people: who may change them.
  const canMigrate = usePermission(guards.endUserChanges) && project.enabled;

  const columns = useMemo<Column<EndUser>[]>(
    () => [
      {
        key: 'identity',
        header: identityLabel,
        sortField: 'identity',
        render: (user) => (
          <Link to={routes.userDetail(project.id, user.id)} className={classes.identity}>
            {user.identity}
          </Link>
        ),
      },
      {
        key: 'createdAt',
        header: t('list.createdAt'),
        sortField: 'createdAt',
        shrink: true,
        render: (user) => <UtcTime iso={user.createdAt} />,
      },
      {
        key: 'lastSignInAt',
        header: t('list.lastSignIn'),
        sortField: 'lastSignInAt',
        shrink: true,
        hiddenOnPhone: true,
        render: (user) => (user.lastSignInAt ? <UtcTime iso={user.lastSignInAt} /> : t('list.never')),
      },
      {
        key: 'activeDevices',
        header: t('list.activeDevices'),
        shrink: true,
        align: 'right',
        hiddenOnPhone: true,
        render: (user) => <span className={classes.count}>{user.activeDevices}</span>,
      },
      {
        key: 'status',
        header: t('list.status'),
        shrink: true,
        render: (user) => (
          <StatusBadge tone={user.status === 'blocked' ? 'negative' : 'positive'}>
            {user.status === 'blocked' ? t('list.blocked') : t('list.active')}
          </StatusBadge>
        ),
      },
      {
        key: 'open',
        header: t('list.open'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (user) => (
          <RowLink to={routes.userDetail(project.id, user.id)} label={t('list.open')} name={t('list.openOf', { user: user.identity })} />
        ),
      },
    ],
    [t, identityLabel, project.id],
  );

  return (
    <PageFrame
      title={tc('pages.projectUsers')}
      description={t('list.intro')}
      actions={
        <Group gap="xs">
          {canMigrate ? <MigrationActions projectId={project.id} /> : null}
          <ExportMenu expected={users.data} load={(format, options) => exportUsers(project.id, list.state, format, options)} />
        </Group>
      }
    >
      <UserImports projectId={project.id} />
      <DataList label={t('list.label')} list={list} result={users} columns={columns} rowKey={(user) => user.id} filters={filterBar} />
    </PageFrame>
  );
}
