import { Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { CenteredLoader } from '../../components/centered-loader.tsx';
import { accountQuery, startSignIn } from '../../lib/session.ts';

/**
 * spec §2 "Session entry": every path but the sign-in pages first loads the signed-in account,
 * with a loader meanwhile; if that fails the browser goes to the identity provider, to come back
 * to the same path.
 */
interface SessionGateProps {
  /** Starts loading the signed-in shell while the account loads. */
  preload?: () => Promise<unknown>;
}

export function SessionGate({ preload }: SessionGateProps) {
  const { t } = useTranslation();
  const account = useQuery(accountQuery);
  const [signInError, setSignInError] = useState<unknown>(null);
  // One redirect per failure, even when StrictMode runs the effect twice.
  const redirecting = useRef(false);
  const needsSignIn = account.isError && !account.data && !account.isFetching;

  useEffect(() => {
    void preload?.();
  }, [preload]);

  useEffect(() => {
    if (!needsSignIn || redirecting.current) return;
    redirecting.current = true;
    startSignIn().catch((error: unknown) => setSignInError(error));
  }, [needsSignIn]);

  if (signInError) {
    const retry = () => {
      redirecting.current = false;
      setSignInError(null);
      void account.refetch();
    };
    return (
      <main>
        <Stack align="center" justify="center" mih="100dvh" gap="md" p="md">
          <Title order={1} size="h2" ta="center">
            {t('session.signInUnavailableTitle')}
          </Title>
          <Text ta="center" maw={480}>
            {t('session.signInUnavailableText')}
          </Text>
          <Button onClick={retry}>{t('common.retry')}</Button>
        </Stack>
      </main>
    );
  }

  if (!account.data) {
    return (
      <main>
        <CenteredLoader fullScreen label={t('common.loading')} />
      </main>
    );
  }

  return <Outlet />;
}
