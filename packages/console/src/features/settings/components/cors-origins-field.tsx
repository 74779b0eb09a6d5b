import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import type { SettingsDraft } from './use-settings-draft.ts';
import classes from './settings.module.css';

/**
 * spec §2 General "Allowed CORS Origins", §5: a list whose every entry is required and a URI; an
 * empty list is allowed (no row at all).
 */
export function CorsOriginsField({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const origins = draft.value.allowedCORSDomains;
  const setAt = (index: number, value: string) =>
    draft.set(`allowedCORSDomains.${index}`, (s) => ({ ...s, allowedCORSDomains: s.allowedCORSDomains.map((o, i) => (i === index ? value : o)) }));
  return (
    <Fieldset legend={t('general.cors')} variant="unstyled" classNames={{ legend: classes.listLegend }}>
      <Text size="xs" c="dimmed" mb="sm">
        {t('general.corsHelp')}
      </Text>
      <Stack gap="sm">
        {origins.map((origin, index) => {
          const n = index + 1;
          const issue = draft.issue(`allowedCORSDomains.${index}`);
          return (
            // Rows have no identity of their own but their place: removing one moves the rest up.
            <Group key={index} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                className={classes.grow}
                label={t('general.corsOrigin', { n })}
                required
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://app.example.com"
                value={origin}
                onChange={(event) => setAt(index, event.currentTarget.value)}
                error={issue ? tc(validationKey(issue)) : undefined}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="input-sm"
                className={classes.alignWithInput}
                aria-label={t('general.removeOrigin', { n })}
                onClick={() =>
                  draft.set('allowedCORSDomains', (s) => ({ ...s, allowedCORSDomains: s.allowedCORSDomains.filter((_, i) => i !== index) }))
                }
              >
                <IconTrash size={18} aria-hidden="true" />
              </ActionIcon>
            </Group>
          );
        })}
        <div>
          <Button
            variant="light"
            size="sm"
            leftSection={<IconPlus size={16} aria-hidden="true" />}
            onClick={() => draft.set('allowedCORSDomains', (s) => ({ ...s, allowedCORSDomains: [...s.allowedCORSDomains, ''] }))}
          >
            {t('general.addOrigin')}
          </Button>
        </div>
      </Stack>
    </Fieldset>
  );
}
