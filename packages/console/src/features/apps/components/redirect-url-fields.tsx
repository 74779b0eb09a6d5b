import { ActionIcon, Button, Fieldset, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import type { UriListCheck, UriRows } from './use-app-form.ts';
import classes from './apps.module.css';

/** The words of one URI list: its legend and help, a row's label, the add and remove buttons. */
interface UriListTexts {
  legend: string;
  help: string;
  item: (n: number) => string;
  add: string;
  remove: (n: number) => string;
}

interface UriListFieldsProps {
  list: UriRows;
  check: UriListCheck;
  texts: UriListTexts;
  disabled?: boolean;
}

/**
 * A list of URIs, one input a row: "Redirect URL 1", "Redirect URL 2"… each required and a URI, its
 * message under it once touched; one more with the add button; a remove button on each while more
 * than the list's minimum remain.
 */
function UriListFields({ list, check, texts, disabled = false }: UriListFieldsProps) {
  const { t: tc } = useTranslation();
  const removable = list.rows.length > list.min && !disabled;
  return (
    <Fieldset legend={texts.legend} variant="unstyled" className={classes.redirects} disabled={disabled}>
      <Text size="sm" c="dimmed" mb="sm">
        {texts.help}
      </Text>
      <Stack gap="sm">
        {list.rows.map((row, index) => {
          const n = index + 1;
          const issue = row.touched ? check.rows[index] : null;
          return (
            <Group key={row.id} gap="xs" align="flex-start" wrap="nowrap">
              <TextInput
                className={classes.redirectInput}
                label={texts.item(n)}
                required
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                autoFocus={row.id === list.added}
                value={row.value}
                disabled={disabled}
                onChange={(event) => list.set(row.id, event.currentTarget.value)}
                onBlur={() => list.touch(row.id)}
                error={issue ? tc(validationKey(issue)) : undefined}
              />
              {removable ? (
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="input-sm"
                  className={classes.removeRedirect}
                  aria-label={texts.remove(n)}
                  onClick={() => list.remove(row.id)}
                >
                  <IconTrash size={18} aria-hidden="true" />
                </ActionIcon>
              ) : null}
            </Group>
          );
        })}
        {check.list && list.rows.some((row) => row.touched) ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {tc(validationKey(check.list))}
          </Text>
        ) : null}
        {!disabled ? (
          <div>
            <Button variant="light" size="sm" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={list.add}>
              {texts.add}
            </Button>
          </div>
        ) : null}
      </Stack>
    </Fieldset>
  );
}

interface FormListProps {
  form: {
    redirects: UriRows;
    postLogout: UriRows;
    check: { redirects: UriListCheck; postLogout: UriListCheck };
  };
  disabled?: boolean;
}

/** spec §2 "Application settings", §5 "New app": the redirect URL list, at least one. */
export function RedirectUrlFields({ form, disabled = false }: FormListProps) {
  const { t } = useTranslation('apps');
  const texts: UriListTexts = {
    legend: t('form.redirectUrls'),
    help: t('form.redirectUrlsHelp'),
    item: (n) => t('form.redirectUrl', { n }),
    add: t('form.addRedirectUrl'),
    remove: (n) => t('form.removeRedirectUrl', { n }),
  };
  return <UriListFields list={form.redirects} check={form.check.redirects} texts={texts} disabled={disabled} />;
}

/** Issue 22 (RP-Initiated Logout): where the app may send its user after signing them out, none or more. */
export function PostLogoutUrlFields({ form, disabled = false }: FormListProps) {
  const { t } = useTranslation('apps');
  const texts: UriListTexts = {
    legend: t('form.postLogoutUrls'),
    help: t('form.postLogoutUrlsHelp'),
    item: (n) => t('form.postLogoutUrl', { n }),
    add: t('form.addPostLogoutUrl'),
    remove: (n) => t('form.removePostLogoutUrl', { n }),
  };
  return <UriListFields list={form.postLogout} check={form.check.postLogout} texts={texts} disabled={disabled} />;
}

interface BackchannelFieldProps {
  form: {
    backchannel: string;
    backchannelTouched: boolean;
    setBackchannel(value: string): void;
    touchBackchannel(): void;
    check: { backchannel: string | null };
  };
  disabled?: boolean;
}

/** Issue 22 (Back-Channel Logout): where the issuer posts a logout token when a user's session ends; optional. */
export function BackchannelLogoutField({ form, disabled = false }: BackchannelFieldProps) {
  const { t } = useTranslation('apps');
  const { t: tc } = useTranslation();
  const issue = form.backchannelTouched ? form.check.backchannel : null;
  return (
    <TextInput
      label={t('form.backchannelLogoutUrl')}
      description={t('form.backchannelLogoutUrlHelp')}
      type="url"
      inputMode="url"
      autoComplete="off"
      spellCheck={false}
      value={form.backchannel}
      disabled={disabled}
      onChange={(event) => form.setBackchannel(event.currentTarget.value)}
      onBlur={form.touchBackchannel}
      error={issue ? tc(validationKey(issue)) : undefined}
    />
  );
}
