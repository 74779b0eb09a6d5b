import { Button, Fieldset, Group, Paper, Table, Text } from '@mantine/core';
import { IconRotateClockwise } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { api } from '../../../lib/api/index.ts';
import { useApiQuery } from '../../../lib/use-api.ts';
import { useRotateSigningKey } from '../api/use-rotate-signing-key.ts';
import classes from './settings.module.css';

/**
 * Issue 22: the issuer's signing keys — the one signing ID tokens now, and those that stopped (rotated
 * away, or of an algorithm the project left) still published until their tokens have expired — and
 * "Rotate signing key" behind a confirmation. Locked while the project is closed.
 */
export function SigningKeys({ projectId, closed }: { projectId: string; closed: boolean }) {
  const { t } = useTranslation('settings');
  const keys = useApiQuery(api.getSigningKeys, { params: { project: projectId } });
  const rotate = useRotateSigningKey(projectId);
  const [asking, setAsking] = useState(false);
  const confirm = () =>
    rotate.mutate(undefined, {
      onSuccess: () => {
        setAsking(false);
        notifySuccess(t('oidc.keys.rotated'));
      },
      onError: (error) => {
        setAsking(false);
        notifyError(t('oidc.keys.rotateFailed'), error);
      },
    });
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} mt="lg" component="section" aria-label={t('oidc.keys.title')}>
      <Fieldset legend={t('oidc.keys.title')} variant="unstyled" classNames={{ legend: classes.sectionTitle }}>
        <Text size="sm" c="dimmed" mb="sm">
          {t('oidc.keys.help')}
        </Text>
        {keys.error ? (
          <ErrorAlert title={t('oidc.keys.loadFailed')} error={keys.error} onRetry={() => void keys.refetch()} />
        ) : (
          <Table withTableBorder aria-label={t('oidc.keys.title')} mb="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('oidc.keys.kid')}</Table.Th>
                <Table.Th scope="col">{t('oidc.keys.alg')}</Table.Th>
                <Table.Th scope="col">{t('oidc.keys.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(keys.data?.keys ?? []).map((key) => (
                <Table.Tr key={key.kid}>
                  <Table.Td ff="monospace">{key.kid}</Table.Td>
                  <Table.Td>{key.alg}</Table.Td>
                  <Table.Td>
                    {key.status === 'signing' ? (
                      <StatusBadge tone="positive">{t('oidc.keys.signing')}</StatusBadge>
                    ) : key.status === 'published' ? (
                      t('oidc.keys.published')
                    ) : key.retiresAt ? (
                      t('oidc.keys.retiresAt', { date: formatUtcDateTime(key.retiresAt) })
                    ) : (
                      t('oidc.keys.retiring')
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        <Group>
          <Button
            variant="light"
            leftSection={<IconRotateClockwise size={16} aria-hidden="true" />}
            disabled={closed}
            onClick={() => setAsking(true)}
          >
            {t('oidc.keys.rotate')}
          </Button>
        </Group>
        <ConfirmModal
          opened={asking}
          title={t('oidc.keys.rotate')}
          message={t('oidc.keys.rotateQuestion')}
          confirmLabel={t('oidc.keys.rotateConfirm')}
          danger={false}
          loading={rotate.isPending}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        />
      </Fieldset>
    </Paper>
  );
}
