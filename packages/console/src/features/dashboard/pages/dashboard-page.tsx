import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { EnrollmentFunnel } from '../components/enrollment-funnel.tsx';
import { UsageDashboard } from '../components/usage-dashboard.tsx';

/** spec §2 "Dashboard" of one project (guard `cst:<C>:usage`). */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  return (
    <UsageDashboard title={tc('pages.projectDashboard')} description={t('intro')} projectId={project.id} fileLabel={project.id}>
      {(filters) => <EnrollmentFunnel projectId={project.id} range={filters} />}
    </UsageDashboard>
  );
}
