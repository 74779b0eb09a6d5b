import { GLOBAL_SCOPES, globalPermission, guards, hasAnyPermission, hasPermission, PROJECT_SCOPES, projectPermission } from '@latchkey/domain';
import { Checkbox, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { useSessionAccount } from '../../../lib/session.ts';
import classes from './accounts.module.css';

interface PermissionCheckboxesProps {
  projectId: string;
  value: readonly string[];
  onChange: (permissions: string[]) => void;
  /** The message key of what is wrong with the list, once shown. */
  issue: string | null;
  disabled?: boolean;
}

/**
 * spec §6's catalogue with its labels, as checkboxes: "select all" (the parent) checks and
 * disables its children (spec §5). A permission the signed-in account does not hold is disabled
 * (issue 12: no one grants — or takes away — what they do not hold; the server says the same). The
 * global permissions are shown only to an account holding one.
 */
export function PermissionCheckboxes({ projectId, value, onChange, issue, disabled = false }: PermissionCheckboxesProps) {
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation();
  const held = useSessionAccount().permissions;
  const showGlobal = hasAnyPermission(held, guards.globalUnlock);
  const toggle = (permission: string, on: boolean) => onChange(on ? [...value, permission] : value.filter((p) => p !== permission));

  const group = (legend: string, parent: string, children: Array<{ permission: string; label: string }>) => {
    const parentOn = value.includes(parent);
    const box = (permission: string, label: string, child: boolean) => (
      <Checkbox
        key={permission}
        label={label}
        checked={value.includes(permission) || (child && parentOn)}
        // spec §5: a child is disabled while its parent is checked.
        disabled={disabled || (child && parentOn) || !hasPermission(held, permission)}
        onChange={(event) => toggle(permission, event.currentTarget.checked)}
      />
    );
    return (
      <Fieldset legend={legend} variant="unstyled" classNames={{ legend: classes.groupLegend }}>
        <Stack gap="xs">
          {box(parent, t('scopes.project.*'), false)}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" verticalSpacing="xs" pl="lg">
            {children.map((c) => box(c.permission, c.label, true))}
          </SimpleGrid>
        </Stack>
      </Fieldset>
    );
  };

  return (
    <div>
      <Text size="sm" fw={600}>
        {t('form.permissions')}
      </Text>
      <Text size="xs" c="dimmed" mb="sm">
        {t('form.permissionsHelp')}
      </Text>
      <Stack gap="md">
        {group(
          t('form.projectPermissions'),
          projectPermission(projectId, '*'),
          PROJECT_SCOPES.map((scope) => ({ permission: projectPermission(projectId, scope), label: t(`scopes.project.${scope}`) })),
        )}
        {showGlobal
          ? group(
              t('form.globalPermissions'),
              globalPermission('*'),
              GLOBAL_SCOPES.map((scope) => ({ permission: globalPermission(scope), label: t(`scopes.global.${scope}`) })),
            )
          : null}
      </Stack>
      {issue ? (
        <Text size="sm" c="var(--mantine-color-error)" role="alert" mt="xs">
          {tc(validationKey(issue))}
        </Text>
      ) : null}
    </div>
  );
}
