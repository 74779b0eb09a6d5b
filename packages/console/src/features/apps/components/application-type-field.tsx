import { APPLICATION_TYPES, type ApplicationType } from '@latchkey/domain';
import { Group, Radio, Stack } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';

interface ApplicationTypeFieldProps {
  value: ApplicationType;
  onChange: (type: ApplicationType) => void;
  readOnly?: boolean;
  disabled?: boolean;
}

/**
 * Issue 22: what the application is at the project's issuer, chosen at creation (as Logto and
 * Auth0 ask): a web app keeps a secret on its server; a single-page or native app cannot, so it
 * signs in with PKCE alone; a native app may return to its own scheme or to a loopback address.
 */
export function ApplicationTypeField({ value, onChange, readOnly = false, disabled = false }: ApplicationTypeFieldProps) {
  const { t } = useTranslation('apps');
  return (
    <Radio.Group
      label={t('form.applicationType')}
      value={value}
      onChange={(chosen) => {
        const type = APPLICATION_TYPES.find((candidate) => candidate === chosen);
        if (type && !readOnly) onChange(type);
      }}
    >
      <Stack gap="xs" mt="xs">
        {APPLICATION_TYPES.map((type) => (
          <Group key={type} wrap="nowrap" align="flex-start">
            <Radio
              value={type}
              label={t(`form.applicationTypes.${type}.label`)}
              description={t(`form.applicationTypes.${type}.help`)}
              disabled={disabled || (readOnly && type !== value)}
            />
          </Group>
        ))}
      </Stack>
    </Radio.Group>
  );
}
