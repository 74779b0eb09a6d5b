import { guards } from '@latchkey/domain';
import { Button, Paper, Stack, Title, VisuallyHidden } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { NotFoundMessage } from '../../../components/not-found-message.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { api, isApiError } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { usePageLabel } from '../../../lib/page-label.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { usePermission } from '../../../lib/use-permission.ts';
import { exportUserData } from '../api/export-user-data.ts';
import { useApiQuery } from '../../../lib/use-api.ts';
import { UserDangerZone } from '../components/user-danger-zone.tsx';
import { UserDevices } from '../components/user-devices.tsx';
import { UserEvents } from '../components/user-events.tsx';
import { UserRecovery } from '../components/user-recovery.tsx';
import { UserSessions } from '../components/user-sessions.tsx';
import classes from '../components/users.module.css';

/** One titled part of the page (its h2 names the section for assistive technology). */
function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** Issue 24: one end user — who they are, their passkeys, their sessions, their recent events, and what may be done to them. */
export default function UserPage() {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const { t: tu } = useTranslation('ui');
  const { user: userId = '' } = useParams();
  const project = useCurrentProject();
  // GET projects/{project}/users/{user}: the user, their passkeys and open sessions.
  const user = useApiQuery(api.getEndUser, { params: { project: project.id, user: userId } });
  // spec §4: a closed project is read-only; the server refuses these changes there too.
  const canChange = usePermission(guards.endUserChanges) && project.enabled;
  const canSeeEvents = usePermission(guards.audit);
  const [exporting, setExporting] = useState(false);
  usePageLabel(user.data?.identity);
  if (isApiError(user.error) && user.error.status === 404) return <NotFoundMessage />;

  const identityLabel = project.identityType === 'email' ? t('list.email') : project.verificationOptions.identityTypeLabel || t('list.userId');
  const data = user.data;
  const blocked = data?.status === 'blocked';
  const exportData = () => {
    setExporting(true);
    exportUserData(project.id, userId)
      .catch((error: unknown) => notifyError(t('detail.exportFailed'), error))
      .finally(() => setExporting(false));
  };

  return (
    <PageFrame
      title={tc('pages.userDetail')}
      description={data?.identity}
      actions={
        data ? (
          <>
            <StatusBadge tone={blocked ? 'negative' : 'positive'} size="md">
              <VisuallyHidden>{`${t('detail.status')}: `}</VisuallyHidden>
              {blocked ? t('list.blocked') : t('list.active')}
            </StatusBadge>
            <Button variant="default" leftSection={<IconDownload size={16} aria-hidden="true" />} loading={exporting} onClick={exportData}>
              {t('detail.exportData')}
            </Button>
          </>
        ) : null
      }
    >
      {user.error ? (
        <ErrorAlert title={t('detail.loadFailed')} error={user.error} onRetry={() => void user.refetch()} />
      ) : !data ? (
        <CenteredLoader label={tc('common.loading')} />
      ) : (
        <Stack gap="xl">
          <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
            <dl className={classes.facts}>
              <dt>{identityLabel}</dt>
              <dd>{data.identity}</dd>
              {data.profile.name ? (
                <>
                  <dt>{t('detail.name')}</dt>
                  <dd>{data.profile.name}</dd>
                </>
              ) : null}
              {data.profile.externalId ? (
                <>
                  <dt>{t('detail.externalId')}</dt>
                  <dd>{data.profile.externalId}</dd>
                </>
              ) : null}
              <dt>{t('detail.created')}</dt>
              <dd>
                <UtcTime iso={data.createdAt} />
              </dd>
              <dt>{t('detail.lastSignIn')}</dt>
              <dd>{data.lastSignInAt ? <UtcTime iso={data.lastSignInAt} /> : t('list.never')}</dd>
              {data.blockedAt ? (
                <>
                  <dt>{t('detail.blockedSince')}</dt>
                  <dd>
                    <UtcTime iso={data.blockedAt} />
                  </dd>
                </>
              ) : null}
            </dl>
          </Paper>
          <Section id="user-devices" title={t('detail.devices')}>
            <UserDevices projectId={project.id} user={data} devices={data.devices} canChange={canChange} />
          </Section>
          <Section id="user-recovery" title={t('recovery.title')}>
            <UserRecovery projectId={project.id} user={data} recovery={data.recovery} canChange={canChange} />
          </Section>
          <Section id="user-sessions" title={t('detail.sessions')}>
            <UserSessions projectId={project.id} user={data} sessions={data.sessions} canChange={canChange} />
          </Section>
          {canSeeEvents ? (
            <Section id="user-events" title={t('detail.events')}>
              <UserEvents projectId={project.id} identity={data.identity} />
            </Section>
          ) : null}
          {canChange ? (
            <Section id="user-danger" title={tu('settings.dangerZone')}>
              <Paper withBorder>
                <UserDangerZone projectId={project.id} user={data} />
              </Paper>
            </Section>
          ) : null}
        </Stack>
      )}
    </PageFrame>
  );
}
