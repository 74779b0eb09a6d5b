import { guards } from '@latchkey/domain';
import { TextInput, Textarea } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CopyField } from '../../../components/copy-field.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { usePermission } from '../../../lib/use-permission.ts';
import classes from './settings.module.css';

interface GlobalUnlockFieldProps {
  label: string;
  description?: string;
  value: string;
  onChange: (value: string) => void;
  /** The message key of what is wrong, once shown. */
  issue: string | null;
  /** A file's text (association files): several lines, monospace. */
  multiline?: boolean;
  /** Not editable here for a reason of the page's (e.g. a method that does not use it). */
  disabled?: boolean;
}

/**
 * spec §6 "Global unlock": the custom domain, the custom mobile domain, the confirmation URL and the
 * association files are edited only by an account holding a global permission; others see a
 * read-only copy field (the server refuses their changes: 403).
 */
export function GlobalUnlockField({ label, description, value, onChange, issue, multiline = false, disabled = false }: GlobalUnlockFieldProps) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const unlocked = usePermission(guards.globalUnlock);
  if (!unlocked)
    return (
      <CopyField
        label={label}
        value={value}
        description={description ? `${description} ${t('globalOnly')}` : t('globalOnly')}
        monospace={multiline}
      />
    );
  const common = {
    label,
    description,
    value,
    disabled,
    autoComplete: 'off',
    spellCheck: false,
    error: issue ? tc(validationKey(issue)) : undefined,
  };
  return multiline ? (
    <Textarea
      {...common}
      autosize
      minRows={3}
      maxRows={12}
      classNames={{ input: classes.monospaceInput }}
      onChange={(event) => onChange(event.currentTarget.value)}
    />
  ) : (
    <TextInput {...common} type="url" inputMode="url" onChange={(event) => onChange(event.currentTarget.value)} />
  );
}
