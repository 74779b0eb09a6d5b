import { useTranslation } from 'react-i18next';
import { UnavailablePage } from '../../../components/unavailable-page.tsx';

// The guarded route is in place; the page itself comes with its own issue.
export default function UserVerificationPage() {
  const { t } = useTranslation();
  return <UnavailablePage title={t('pages.projectUserVerification')} />;
}
