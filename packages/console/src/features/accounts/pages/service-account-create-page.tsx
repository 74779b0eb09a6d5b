import { serviceAccountCreateSchema } from '@latchkey/domain';
import { TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useNavigate } from 'react-router';
import { OneTimeSecretModal } from '../../../components/one-time-secret-modal.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { routes } from '../../../lib/routes.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import { issueAt } from '../components/issues.ts';
import { PermissionCheckboxes } from '../components/permission-checkboxes.tsx';
import { StatusField } from '../components/status-field.tsx';

/**
 * spec §2 "Account forms": a service account — name, permissions, status (issue 12: an optional
 * expiry of its token). After creation its token shows once (spec §4), to be acknowledged as
 * copied; closing returns to the accounts list. One created inactive has no token yet (issue 21):
 * its page opens, where it is activated and its first token made.
 */
export default function ServiceAccountCreatePage() {
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const navigate = useNavigate();
  const create = useApiMutation(api.createServiceAccount, { invalidates: [api.listAccounts] });
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState<string[]>([]);
  const [active, setActive] = useState(true);
  const [expiry, setExpiry] = useState('');
  const [touched, setTouched] = useState(false);
  const [token, setToken] = useState<string | null>(null);
  // A day's end, UTC: the token works through the day named.
  const expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(expiry) ? `${expiry}T23:59:59Z` : expiry === '' ? null : expiry;
  const checked = useMemo(
    () => serviceAccountCreateSchema.safeParse({ name, permissions, active, expiresAt }),
    [name, permissions, active, expiresAt],
  );
  const issue = (field: string) => (touched ? issueAt(checked, field) : null);
  const message = (field: string) => {
    const key = issue(field);
    return key ? tc(validationKey(key)) : undefined;
  };

  const submit = () => {
    setTouched(true);
    if (!checked.success) return;
    create.mutate(
      { params: { project: project.id }, body: checked.data },
      {
        onSuccess: (created) => {
          if (created.token !== null) return setToken(created.token);
          // Created inactive: no token until it is activated (issue 21); its page is where both happen.
          notifySuccess(t('form.createdInactive'));
          void navigate(routes.accountSettings(project.id, created.id));
        },
        onError: (error) => notifyError(tc('notifications.error.account_created'), error),
      },
    );
  };

  return (
    <PageFrame title={tc('pages.serviceAccountCreate')}>
      <SettingsForm
        label={tc('pages.serviceAccountCreate')}
        valid={checked.success}
        pending={create.isPending}
        onSave={submit}
        saveLabel={t('form.create')}
      >
        <TextInput
          label={t('form.name')}
          description={t('form.nameHelp')}
          required
          autoComplete="off"
          maw={480}
          value={name}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setTouched(true);
          }}
          error={message('name')}
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
        <TextInput
          label={t('form.expiry')}
          description={t('form.expiryHelp')}
          type="date"
          maw={240}
          value={expiry}
          onChange={(event) => setExpiry(event.currentTarget.value)}
          error={message('expiresAt')}
        />
      </SettingsForm>
      <OneTimeSecretModal
        opened={token !== null}
        title={t('token.title')}
        intro={t('token.intro')}
        secret={{ label: t('token.label'), value: token ?? '' }}
        onAcknowledge={() => {
          setToken(null);
          void navigate(routes.projectAccounts(project.id));
        }}
      />
    </PageFrame>
  );
}
