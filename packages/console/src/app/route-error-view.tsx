import { Button, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export default function RouteErrorView() {
  const { t } = useTranslation();
  return (
    <main>
      <Stack align="center" justify="center" mih="100dvh" gap="md" p="md">
        <Title order={1} size="h2" ta="center">
          {t('errors.unexpectedTitle')}
        </Title>
        <Text ta="center" maw={480}>
          {t('errors.unexpectedText')}
        </Text>
        <Button onClick={() => window.location.reload()}>{t('errors.reload')}</Button>
      </Stack>
    </main>
  );
}
