import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { DANGER_COLOR } from '../../../components/confirm-modal.tsx';
import { DangerButton } from '../../../components/settings-form.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import type { ListState } from '../../../lib/list-state/list-state.ts';
import { formatNumber } from '../../../lib/format-number.ts';
import { currentLanguage } from '../../../lib/i18n/index.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useBulkRevocation } from '../api/use-bulk-revocation.ts';

interface BulkRevocationProps {
  projectId: string;
  /** The devices list's state: its filter is what is revoked. */
  list: ListState;
}

/**
 * "Revoke every device matching the current filter" (issue 9 "Beyond the spec", docs/decisions/0019
 * "Bulk revocation"): counts first and asks with the count; then revokes in batches with progress,
 * each device its own revocation and audit event; can be stopped, and finished later by asking again.
 */
export function BulkRevocation({ projectId, list }: BulkRevocationProps) {
  const { t, i18n } = useTranslation('devices');
  const { t: tu } = useTranslation('ui');
  const { state, ask, confirm, stop, dismiss } = useBulkRevocation(projectId);
  const number = (n: number) => formatNumber(n, currentLanguage(i18n));

  const start = () => {
    ask(list).then(
      (count) => {
        if (count === 0) notifySuccess(t('bulk.none'));
      },
      (error: unknown) => notifyError(t('bulk.countFailed'), error),
    );
  };

  const run = () => {
    void confirm().then((outcome) => {
      if (!outcome) return;
      const counts = { revoked: number(outcome.revoked), total: number(outcome.count) };
      if (outcome.finished) notifySuccess(t('bulk.done', { count: outcome.revoked, revoked: counts.revoked }));
      else if (outcome.error) notifyError(t('bulk.failed', counts), outcome.error);
      else notifySuccess(t('bulk.stopped', counts));
    });
  };

  const open = state.step === 'asking' || state.step === 'revoking';
  const running = state.step === 'revoking';
  const count = open ? state.count : 0;
  const until = open ? formatUtcDateTime(state.until) : '';

  return (
    <>
      <DangerButton leftSection={<IconBan size={16} aria-hidden="true" />} onClick={start} loading={state.step === 'counting'} disabled={open}>
        {t('bulk.open')}
      </DangerButton>
      <Modal
        opened={open}
        onClose={running ? () => undefined : dismiss}
        title={running ? t('bulk.runningTitle') : t('bulk.title', { count, number: number(count) })}
        centered
        withCloseButton={!running}
        closeButtonProps={{ 'aria-label': tu('actions.close') }}
        closeOnEscape={!running}
        closeOnClickOutside={!running}
      >
        {running ? (
          <Stack gap="xs">
            <Text size="sm" role="status" aria-live="polite">
              {t('bulk.progress', { revoked: number(state.revoked), total: number(count) })}
            </Text>
            <Progress value={count > 0 ? (state.revoked / count) * 100 : 0} aria-label={t('bulk.runningTitle')} />
            <Text size="xs" c="dimmed">
              {t('bulk.resumable')}
            </Text>
          </Stack>
        ) : (
          <Text size="sm">{t('bulk.text', { count, number: number(count), until })}</Text>
        )}
        <Group justify="flex-end" gap="sm" mt="lg">
          {running ? (
            <Button variant="default" onClick={stop} disabled={state.stopping} loading={state.stopping}>
              {t('bulk.stop')}
            </Button>
          ) : (
            <>
              <Button variant="default" onClick={dismiss} data-autofocus>
                {tu('actions.cancel')}
              </Button>
              <Button color={DANGER_COLOR} onClick={run}>
                {t('bulk.confirm', { count, number: number(count) })}
              </Button>
            </>
          )}
        </Group>
      </Modal>
    </>
  );
}
