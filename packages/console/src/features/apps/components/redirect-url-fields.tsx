import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import '../texts.ts';
import type { AppForm } from './use-app-form.ts';
import classes from './apps.module.css';

interface RedirectUrlFieldsProps {
  form: AppForm;
  disabled?: boolean;
}

/**
 * spec §2 "Application settings", §5 "New app": the redirect URL list — "Redirect URL 1", "Redirect
 * URL 2"… each required and a URI, its message under it once touched; one more with "Add redirect
 * URL"; a remove button on each while there is more than one.
 */
export function RedirectUrlFields({ form, disabled = false }: RedirectUrlFieldsProps) {
  const { t } = useTranslation('apps');
  const { t: tc } = useTranslation();
  const removable = form.rows.length > 1 && !disabled;

  return (
    <Fieldset legend={t('form.redirectUrls')} variant="unstyled" className={classes.redirects} disabled={disabled}>
      <Text size="sm" c="dimmed" mb="sm">
        {t('form.redirectUrlsHelp')}
      </Text>
      <Stack gap="sm">
        {form.rows.map((row, index) => {
          const n = index + 1;
          const issue = row.touched ? form.check.redirects[index] : null;
          return (
            <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                className={classes.redirectInput}
                label={t('form.redirectUrl', { n })}
                required
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                autoFocus={row.id === form.added}
                value={row.value}
                disabled={disabled}
                onChange={(event) => form.setRedirect(row.id, event.currentTarget.value)}
                onBlur={() => form.touchRedirect(row.id)}
                error={issue ? tc(validationKey(issue)) : undefined}
              />
              {removable ? (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="input-sm"
                  className={classes.removeRedirect}
                  aria-label={t('form.removeRedirectUrl', { n })}
                  onClick={() => form.removeRedirect(row.id)}
                >
                  <IconTrash size={18} aria-hidden="true" />
                </ActionIcon>
              ) : null}
            </Group>
          );
        })}
        {form.check.redirectList && form.rows.some((row) => row.touched) ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {tc(validationKey(form.check.redirectList))}
          </Text>
        ) : null}
        {!disabled ? (
          <div>
            <Button variant="light" size="sm" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={form.addRedirect}>
              {t('form.addRedirectUrl')}
            </Button>
          </div>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
