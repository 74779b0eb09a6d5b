import { FREE_TIER_MONTHLY_AUTHENTICATIONS } from '@latchkey/domain';
import { Button, List, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeartHandshake, IconPlus, IconSparkles } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { formatNumber } from '../../../lib/format-number.ts';

/** spec §1, §2 "Welcome page": for new accounts; the free tier, and the way to the first app. */
export default function WelcomePage() {
  const { t } = useTranslation();
  const project = useCurrentProject();
  const navigate = useNavigate();
  const limit = formatNumber(FREE_TIER_MONTHLY_AUTHENTICATIONS);

  return (
    <PageFrame title={t('welcome.heading')} description={t('welcome.intro')}>
      <Paper withBorder p="xl" maw={720}>
        <Stack gap="lg">
          <List spacing="md" center>
            <List.Item
              icon={
                <ThemeIcon variant="light" size={32} radius="xl" aria-hidden="true">
                  <IconSparkles size={18} />
                </ThemeIcon>
              }
            >
              <Text>{t('welcome.freeTier', { limit })}</Text>
            </List.Item>
            <List.Item
              icon={
                <ThemeIcon variant="light" size={32} radius="xl" aria-hidden="true">
                  <IconHeartHandshake size={18} />
                </ThemeIcon>
              }
            >
              <Text>{t('welcome.freeForGood')}</Text>
            </List.Item>
          </List>
          {/* spec §4: while closed, add buttons are hidden. */}
          {project.enabled ? (
            <div>
              <Button onClick={() => void navigate(routes.appCreate(project.id))} leftSection={<IconPlus size={18} aria-hidden="true" />} size="md">
                {t('welcome.addApp')}
              </Button>
            </div>
          ) : null}
        </Stack>
      </Paper>
    </PageFrame>
  );
}
