import { Paper, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n/react.tsx';
import { PageFrame } from './page-frame.tsx';

/**
 * A guarded route whose page this version does not have yet: it says so plainly instead of showing
 * an empty page that looks broken.
 */
export function UnavailablePage({ title }: { title: string }) {
  const { t } = useTranslation();
  return (
    <PageFrame title={title}>
      <Paper withBorder radius="md" p="lg">
        <Text fw={600}>{t('pages.unavailableHeading')}</Text>
        <Text size="sm" c="dimmed" mt={4}>
          {t('pages.unavailableText')}
        </Text>
      </Paper>
    </PageFrame>
  );
}
