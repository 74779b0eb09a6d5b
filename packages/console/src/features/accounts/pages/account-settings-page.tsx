import { accountUpdateSchema, type Account } from '@latchkey/domain';
import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconInfoCircle, IconKey, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useParams } from 'react-router';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { NotFoundMessage } from '../../../components/not-found-message.tsx';
import { OneTimeSecretModal } from '../../../components/one-time-secret-modal.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { api, isApiError, type Tagged } from '../../../lib/api/index.ts';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { notifyError, notifyRawError } from '../../../lib/notify.ts';
import { usePageLabel } from '../../../lib/page-label.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { useApiMutation, useTaggedQuery } from '../../../lib/use-api.ts';
import { useUpdateAccount } from '../api/use-update-account.ts';
import classes from '../components/accounts.module.css';
import { issueAt } from '../components/issues.ts';
import { PermissionCheckboxes } from '../components/permission-checkboxes.tsx';
import { StatusField } from '../components/status-field.tsx';

/** spec §2 "Account forms": an account's permissions and status (its email fixed); a service account's token (issue 12). */
export default function AccountSettingsPage() {
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation();
  const { account: accountId = '' } = useParams();
  const project = useCurrentProject();
  const account = useTaggedQuery(api.getProjectAccount, { params: { project: project.id, account: accountId } });
  const shown = account.data?.data;
  usePageLabel(shown ? (shown.email ?? shown.name) : undefined);
  if (isApiError(account.error) && account.error.status === 404) return <NotFoundMessage />;
  return (
    <PageFrame title={tc('pages.accountSettings')} description={shown ? (shown.email ?? shown.name) : undefined}>
      {account.error ? (
        <ErrorAlert title={t('form.loadFailed')} error={account.error} onRetry={() => void account.refetch()} />
      ) : account.data ? (
        <AccountForm key={account.data.etag ?? JSON.stringify(account.data.data)} projectId={project.id} current={account.data} />
      ) : (
        <CenteredLoader label={tc('common.loading')} />
      )}
    </PageFrame>
  );
}

function AccountForm({ projectId, current }: { projectId: string; current: Tagged<Account> }) {
  const account = current.data;
  const { t } = useTranslation('accounts');
  const { t: tc } = useTranslation();
  const update = useUpdateAccount(projectId, account.id);
  const [permissions, setPermissions] = useState<string[]>(account.permissions);
  const [active, setActive] = useState(account.active);
  const checked = useMemo(() => accountUpdateSchema.safeParse({ permissions, active }), [permissions, active]);
  const submit = () => {
    if (!checked.success) return;
    update.mutate({ current, body: checked.data }, { onError: (error) => notifyError(tc('notifications.error.account_updated'), error) });
  };
  return (
    <Stack gap="xl">
      <SettingsForm label={tc('pages.accountSettings')} valid={checked.success} pending={update.isPending} onSave={submit} lockFieldsWhenClosed>
        {account.invited ? (
          <Alert color="gray" variant="light" icon={<IconInfoCircle aria-hidden="true" />}>
            {t('form.invitedNote')}
          </Alert>
        ) : null}
        {account.isServiceAccount ? (
          <TextInput label={t('form.name')} value={account.name} readOnly variant="filled" maw={480} />
        ) : (
          <TextInput label={t('form.email')} value={account.email ?? ''} readOnly variant="filled" maw={480} />
        )}
        <PermissionCheckboxes projectId={projectId} value={permissions} onChange={setPermissions} issue={issueAt(checked, 'permissions')} />
        <StatusField value={active} onChange={setActive} />
      </SettingsForm>
      {account.isServiceAccount ? <TokenPanel projectId={projectId} account={account} /> : null}
    </Stack>
  );
}

/** Issue 12: the service account's token — never the token itself — with its last use; generate a new one, or revoke it. */
function TokenPanel({ projectId, account }: { projectId: string; account: Account }) {
  const { t } = useTranslation('accounts');
  const project = useCurrentProject();
  const token = account.token ?? null;
  // Issue 12: a new token (shown once), or the token revoked; the account is read again after either.
  const rotate = useApiMutation(api.rotateServiceToken, { invalidates: [api.getProjectAccount] });
  const revoke = useApiMutation(api.revokeServiceToken, { invalidates: [api.getProjectAccount] });
  const params = { project: projectId, account: account.id };
  const [asking, setAsking] = useState<'rotate' | 'revoke' | null>(null);
  const [fresh, setFresh] = useState<string | null>(null);
  const locked = !project.enabled || !account.active;
  const confirm = () => {
    if (asking === 'rotate') {
      rotate.mutate(
        { params, body: {} },
        {
          onSuccess: (answer) => {
            setAsking(null);
            setFresh(answer.token);
          },
          onError: (error) => {
            setAsking(null);
            notifyRawError(error);
          },
        },
      );
    } else if (asking === 'revoke') {
      revoke.mutate(
        { params },
        {
          onSettled: () => setAsking(null),
          onError: notifyRawError,
        },
      );
    }
  };
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="token-title">
      <Title order={2} size="h4" id="token-title" mb="sm">
        {t('token.section')}
      </Title>
      {token ? (
        <dl className={classes.tokenGrid}>
          <dt>{t('token.prefix')}</dt>
          <dd>
            <code>{`${token.prefix}…`}</code>
          </dd>
          <dt>{t('token.created')}</dt>
          <dd>{formatUtcDateTime(token.createdAt)}</dd>
          <dt>{t('token.expires')}</dt>
          <dd>{token.expiresAt ? formatUtcDateTime(token.expiresAt) : t('token.never')}</dd>
          <dt>{t('token.lastUsed')}</dt>
          <dd>
            {token.lastUsedAt
              ? `${formatUtcDateTime(token.lastUsedAt)} ${token.lastUsedIp ? t('token.from', { ip: token.lastUsedIp }) : ''}`
              : t('token.notUsed')}
          </dd>
        </dl>
      ) : (
        <Text size="sm">{t('token.none')}</Text>
      )}
      <Group gap="sm" mt="md">
        <Button variant="default" leftSection={<IconKey size={16} aria-hidden="true" />} disabled={locked} onClick={() => setAsking('rotate')}>
          {t('token.rotate')}
        </Button>
        {token ? (
          <Button
            variant="outline"
            color="red"
            className={classes.revoke}
            leftSection={<IconTrash size={16} aria-hidden="true" />}
            disabled={!project.enabled}
            onClick={() => setAsking('revoke')}
          >
            {t('token.revoke')}
          </Button>
        ) : null}
      </Group>
      <ConfirmModal
        opened={asking !== null}
        title={asking === 'revoke' ? t('token.revokeTitle') : t('token.rotateTitle')}
        message={asking === 'revoke' ? t('token.revokeText') : t('token.rotateText')}
        confirmLabel={asking === 'revoke' ? t('token.revoke') : t('token.rotate')}
        loading={rotate.isPending || revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(null)}
      />
      <OneTimeSecretModal
        opened={fresh !== null}
        title={t('token.title')}
        intro={t('token.intro')}
        secret={{ label: t('token.label'), value: fresh ?? '' }}
        onAcknowledge={() => setFresh(null)}
      />
    </Paper>
  );
}
