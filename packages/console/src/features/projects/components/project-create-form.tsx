import { projectCreateSchema } from '@latchkey/domain';
import { Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { SubmitButton } from '../../../components/submit-button.tsx';
import { isApiError } from '../../../lib/api/index.ts';
import { validationKey } from '../../../lib/i18n/validation.ts';

// spec §5: the name rules are the domain schema's (required, max 250, trimmed).
const nameRule = projectCreateSchema.shape.name;

/** The name after trimming, or the catalogue key of what is wrong with it. */
export function checkProjectName(value: string): { ok: true; name: string } | { ok: false; key: string } {
  const result = nameRule.safeParse(value);
  if (result.success) return { ok: true, name: result.data };
  return { ok: false, key: result.error.issues[0]?.message ?? 'validation.invalid_value' };
}

interface ProjectCreateFormProps {
  pending: boolean;
  /** The server's rejection of the last submission, if any: its field issues are shown on the field. */
  error: unknown;
  onSubmit: (name: string) => void;
}

/** spec §2 "Create project": one field, Name, and a Create button disabled while the name is invalid. */
export function ProjectCreateForm({ pending, error, onSubmit }: ProjectCreateFormProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [touched, setTouched] = useState(false);
  const check = checkProjectName(value);
  const serverIssue = isApiError(error) ? error.issues.find((issue) => issue.field === 'name') : undefined;
  const message = !check.ok && touched ? check.key : serverIssue?.code;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTouched(true);
    if (check.ok && !pending) onSubmit(check.name);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg" maw={480}>
        <TextInput
          label={t('projectCreate.name')}
          required
          autoComplete="off"
          data-autofocus
          value={value}
          onChange={(event) => {
            setValue(event.currentTarget.value);
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={message ? t(validationKey(message)) : undefined}
        />
        <div>
          <SubmitButton pending={pending} disabled={!check.ok}>
            {t('projectCreate.submit')}
          </SubmitButton>
        </div>
      </Stack>
    </form>
  );
}
