import { Paper } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { notifyError } from '../../../lib/notify.ts';
import { routes } from '../../../lib/routes.ts';
import { useCreateProject } from '../api/use-create-project.ts';
import { ProjectCreateForm } from '../components/project-create-form.tsx';

export default function ProjectCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const createProject = useCreateProject();

  const submit = (name: string) => {
    createProject.mutate(name, {
      onSuccess: ({ id }) => void navigate(routes.projectDashboard(id)),
      // spec §8: 'Failed to create new project'.
      onError: (error) => notifyError(t('notifications.error.project_created'), error),
    });
  };

  return (
    <PageFrame title={t('pages.projectCreate')} description={t('projectCreate.intro')}>
      <Paper withBorder p="xl" maw={560}>
        <ProjectCreateForm pending={createProject.isPending} error={createProject.error} onSubmit={submit} />
      </Paper>
    </PageFrame>
  );
}
