import { useTranslation } from 'react-i18next';
import { UnavailablePage } from '../../../components/unavailable-page.tsx';

// The guarded route is in place; the page itself comes with its own issue.
export default function DashboardPage() {
  const { t } = useTranslation();
  return <UnavailablePage title={t('pages.projectDashboard')} />;
}
