import { guards } from '@latchkey/domain';
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import { Outlet } from 'react-router';
import { CenteredLoader } from '../../components/centered-loader.tsx';
import { ErrorAlert } from '../../components/error-alert.tsx';
import { ForbiddenMessage } from '../../components/forbidden-message.tsx';
import { NotFoundMessage } from '../../components/not-found-message.tsx';
import { skipToken, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, isApiError } from '../../lib/api/index.ts';
import { useApiQuery } from '../../lib/use-api.ts';
import { accountQuery } from '../../lib/session.ts';
import { usePermission } from '../../lib/use-permission.ts';
import { CurrentProjectContext, useCurrentProjectId } from '../../lib/project-context.ts';
import { useCurrentRoute } from '../route-handle.ts';
import classes from './layout.module.css';

/**
 * Every `/project/{project}/…` route: loads the project (the current project of spec §3), shows
 * not-found for a project the account cannot see at all, and the closed-project banner (spec §4).
 */
export function ProjectScope() {
  const { t } = useTranslation();
  const projectId = useCurrentProjectId();
  const { handle } = useCurrentRoute();
  const member = usePermission(guards.projectMember);
  // spec §7: GET projects/{project}; nothing to load outside a project, or for one the account may not see.
  const project = useApiQuery(api.getProject, member && projectId ? { params: { project: projectId } } : skipToken);
  // The permissions at hand were read when the console loaded (or a minute ago): a project made
  // since elsewhere, or one another administrator has just let this account into, is not in them
  // yet. Before saying not found, they are read again, once per project entered.
  const queryClient = useQueryClient();
  const [recheckedFor, setRecheckedFor] = useState<string | null>(null);
  useEffect(() => {
    if (member || !projectId || recheckedFor === projectId) return;
    void queryClient.refetchQueries({ queryKey: accountQuery.queryKey, exact: true }).finally(() => setRecheckedFor(projectId));
  }, [member, projectId, recheckedFor, queryClient]);

  if (!projectId) return <NotFoundMessage />;
  if (!member && recheckedFor !== projectId) return <CenteredLoader label={t('common.loading')} />;
  if (!member) return <NotFoundMessage />;
  if (project.isPending) return <CenteredLoader label={t('common.loading')} />;
  if (project.isError) {
    if (isApiError(project.error) && project.error.status === 404) return <NotFoundMessage />;
    if (isApiError(project.error) && project.error.status === 403) return <ForbiddenMessage />;
    return <ErrorAlert title={t('errors.loadFailed')} error={project.error} onRetry={() => void project.refetch()} />;
  }

  // The disabled-notice page says the same thing as the banner; once is enough there.
  const showBanner = !project.data.enabled && handle?.route !== 'projectDisabled';
  return (
    <CurrentProjectContext value={project.data}>
      {showBanner ? (
        <Alert
          color="yellow"
          variant="light"
          title={t('banner.closedTitle')}
          icon={<IconAlertTriangle aria-hidden="true" />}
          className={classes.closedBanner}
          classNames={{ title: classes.closedBannerTitle }}
        >
          {t('banner.closedText')}
        </Alert>
      ) : null}
      <Outlet />
    </CurrentProjectContext>
  );
}
