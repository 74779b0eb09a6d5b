import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The account could not be loaded and the identity provider's address could not be fetched either. */
export default function SignInUnavailable({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <main>
      <Stack align="center" justify="center" mih="100dvh" gap="md" p="md">
        <Title order={1} size="h2" ta="center">
          {t('session.signInUnavailableTitle')}
        </Title>
        <Text ta="center" maw={480}>
          {t('session.signInUnavailableText')}
        </Text>
        <Button onClick={onRetry}>{t('common.retry')}</Button>
      </Stack>
    </main>
  );
}
