import { VisuallyHidden } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useParams } from 'react-router';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { NotFoundMessage } from '../../../components/not-found-message.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { api, isApiError } from '../../../lib/api/index.ts';
import { usePageLabel } from '../../../lib/page-label.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { useAppKeys } from '../api/use-app-keys.ts';
import { useTaggedQuery } from '../../../lib/use-api.ts';
import { AppSettingsForm } from '../components/app-settings-form.tsx';

/** spec §2 "Application settings". */
export default function AppSettingsPage() {
  const { t } = useTranslation('apps');
  const { t: tc } = useTranslation();
  const { application = '' } = useParams();
  const project = useCurrentProject();
  // spec §7: GET apps/{application}, with its ETag (sent back as If-Match when it is saved).
  const app = useTaggedQuery(api.getApp, { params: { application } });
  const keys = useAppKeys(application);
  usePageLabel(app.data?.data.name);

  const error = app.error ?? keys.error;
  // An application of another project is not shown under this one.
  const elsewhere = app.data !== undefined && app.data.data.projectId !== project.id;
  if ((isApiError(app.error) && app.error.status === 404) || elsewhere) return <NotFoundMessage />;

  return (
    <PageFrame
      title={tc('pages.appSettings')}
      description={app.data?.data.name}
      actions={
        app.data ? (
          <StatusBadge tone={app.data.data.enabled ? 'positive' : 'neutral'} size="md">
            <VisuallyHidden>{`${t('settings.status')}: `}</VisuallyHidden>
            {app.data.data.enabled ? t('settings.enabled') : t('settings.disabled')}
          </StatusBadge>
        ) : null
      }
    >
      {error ? (
        <ErrorAlert
          title={t('settings.loadFailed')}
          error={error}
          onRetry={() => {
            void app.refetch();
            void keys.refetch();
          }}
        />
      ) : app.data && keys.data !== undefined ? (
        <AppSettingsForm key={app.data.data.id} app={app.data} keys={keys.data} project={project} />
      ) : (
        <CenteredLoader label={tc('common.loading')} />
      )}
    </PageFrame>
  );
}
