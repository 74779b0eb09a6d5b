import { Paper, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';

/** spec §2 "Disabled project notice". */
export default function DisabledNoticePage() {
  const { t } = useTranslation();
  return (
    <PageFrame title={t('disabled.heading')}>
      <Paper withBorder p="xl" maw={720}>
        <Text>{t('disabled.text')}</Text>
      </Paper>
    </PageFrame>
  );
}
