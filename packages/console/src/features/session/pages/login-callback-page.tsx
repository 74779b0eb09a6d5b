import { VisuallyHidden } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate, useSearchParams } from 'react-router';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { completeSignIn } from '../api/complete-sign-in.ts';

/** spec §2 "Login callback page": the return point of the external sign-in. */
export default function LoginCallbackPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const code = search.get('code');
  const state = search.get('state');
  const next = search.get('next');
  const error = search.get('error');

  useEffect(() => {
    let current = true;
    void completeSignIn({ code, state, next, error }, queryClient).then((target) => {
      if (current) void navigate(target, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [code, state, next, error, queryClient, navigate]);

  return (
    <>
      <VisuallyHidden component="h1">{t('pages.login')}</VisuallyHidden>
      <CenteredLoader label={t('common.loading')} />
    </>
  );
}
