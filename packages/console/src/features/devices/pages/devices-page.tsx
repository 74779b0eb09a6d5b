import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';

// Walking skeleton: the guarded route and its frame; the page itself comes with its own issue.
export default function DevicesPage() {
  const { t } = useTranslation();
  return <PageFrame title={t('pages.projectDevices')} />;
}
