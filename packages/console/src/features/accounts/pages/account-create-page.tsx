import { staffAccountCreateSchema } from '@latchkey/domain';
import { TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { notifyError } from '../../../lib/notify.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import { PermissionCheckboxes } from '../components/permission-checkboxes.tsx';
import { StatusField } from '../components/status-field.tsx';
import { issueAt } from '../components/issues.ts';

/** spec §2 "Account forms": a staff account — email, permissions, status; spec §5 its rules; §8 'Failed to create new account'. */
export default function AccountCreatePage() {
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const navigate = useNavigate();
  const create = useApiMutation(api.createAccount, { invalidates: [api.listAccounts] });
  const [email, setEmail] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [active, setActive] = useState(true);
  const [touched, setTouched] = useState(false);
  const checked = useMemo(() => staffAccountCreateSchema.safeParse({ email, permissions, active }), [email, permissions, active]);
  const issue = (field: string) => (touched ? issueAt(checked, field) : null);

  const submit = () => {
    setTouched(true);
    if (!checked.success) return;
    create.mutate(
      { params: { project: project.id }, body: checked.data },
      {
        onSuccess: () => void navigate(routes.projectAccounts(project.id)),
        onError: (error) => notifyError(tc('notifications.error.account_created'), error),
      },
    );
  };

  return (
    <PageFrame title={tc('pages.accountCreate')}>
      <SettingsForm label={tc('pages.accountCreate')} valid={checked.success} pending={create.isPending} onSave={submit} saveLabel={t('form.create')}>
        <TextInput
          label={t('form.email')}
          description={t('form.emailHelp')}
          required
          type="email"
          inputMode="email"
          autoComplete="off"
          maw={480}
          value={email}
          onChange={(event) => {
            setEmail(event.currentTarget.value);
            setTouched(true);
          }}
          error={issue('email') ? tc(validationKey(issue('email') ?? '')) : undefined}
        />
        <PermissionCheckboxes
          projectId={project.id}
          value={permissions}
          onChange={(next) => {
            setPermissions(next);
            setTouched(true);
          }}
          issue={issue('permissions')}
        />
        <StatusField value={active} onChange={setActive} />
      </SettingsForm>
    </PageFrame>
  );
}
