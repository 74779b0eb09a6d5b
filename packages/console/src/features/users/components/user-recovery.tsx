import type { EndUser, EndUserRecovery, ReenrollmentLink } from '@latchkey/domain';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useState } from 'react';
import { OneTimeSecretModal } from '../../../components/one-time-secret-modal.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { api } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyRawError } from '../../../lib/notify.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import classes from './users.module.css';

/**
 * Issue 37, docs/decisions/0051: how the person can get back in — their active passkeys, recovery
 * codes left, an email recovery under way — and, for who may change the user, a one-time
 * re-enrollment link for help-desk recovery, shown once (the server keeps only its keyed hash).
 */
export function UserRecovery({
  projectId,
  user,
  recovery,
  canChange,
}: {
  projectId: string;
  user: EndUser;
  recovery: EndUserRecovery;
  canChange: boolean;
}) {
  const { t } = useTranslation('users');
  const [link, setLink] = useState<ReenrollmentLink | null>(null);
  // The audit log holds the link's creation now.
  const create = useApiMutation(api.createReenrollmentLink, { invalidates: [api.listAuditEvents] });
  const params = { project: projectId, user: user.id };
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        <dl className={classes.facts}>
          <dt>{t('recovery.passkeys')}</dt>
          <dd>
            {t('recovery.passkeysCount', { count: recovery.passkeys })}
            {recovery.passkeys > 0 ? ` (${t('recovery.passkeysSynced', { count: recovery.syncedPasskeys })})` : ''}
          </dd>
          <dt>{t('recovery.codes')}</dt>
          <dd>{recovery.recoveryCodesLeft === null ? t('recovery.codesNone') : t('recovery.codesLeft', { count: recovery.recoveryCodesLeft })}</dd>
          <dt>{t('recovery.emailRecovery')}</dt>
          <dd>
            {recovery.emailRecoveryUntil ? (
              <>
                {t('recovery.emailRecoveryUntil')} <UtcTime iso={recovery.emailRecoveryUntil} />
              </>
            ) : (
              t('recovery.emailRecoveryNone')
            )}
          </dd>
        </dl>
        {canChange ? (
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Text size="sm" c="dimmed" maw={520}>
              {t('recovery.linkText')}
            </Text>
            <Button
              variant="default"
              leftSection={<IconLink size={16} aria-hidden="true" />}
              loading={create.isPending}
              onClick={() => void create.mutateAsync({ params }).then(setLink).catch(notifyRawError)}
            >
              {t('recovery.createLink')}
            </Button>
          </Group>
        ) : null}
      </Stack>
      <OneTimeSecretModal
        opened={link !== null}
        title={t('recovery.linkTitle')}
        intro={
          link
            ? t('recovery.linkIntro', { user: user.identity, expires: new Date(link.expiresAt).toISOString().slice(0, 16).replace('T', ' ') })
            : undefined
        }
        secret={{ label: t('recovery.linkLabel'), value: link?.url ?? '' }}
        onAcknowledge={() => setLink(null)}
      />
    </Paper>
  );
}
