import type { DeviceIdentity, EndUser } from '@latchkey/domain';
import { Button } from '@mantine/core';
import { useMemo, useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyRawError, notifySuccess } from '../../../lib/notify.ts';
import { REVOCATION_REASON } from '@latchkey/domain';
import { api } from '../../../lib/api/index.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import classes from './users.module.css';

/** The user's passkeys, newest first; an active one revoked behind a confirm (spec §4: one way). */
export function UserDevices({
  projectId,
  user,
  devices,
  canChange,
}: {
  projectId: string;
  user: EndUser;
  devices: DeviceIdentity[];
  canChange: boolean;
}) {
  const { t } = useTranslation('users');
  const [asked, setAsked] = useState<DeviceIdentity | null>(null);
  const [open, setOpen] = useState(false);
  // spec §7: POST projects/{project}/mpinids/{mpinId}/revocation. Every user's reads (their page under
  // them), the devices list and the audit log are read again, failed or not: it may have been revoked meanwhile.
  const revoke = useApiMutation(api.revokeDevice, { invalidates: [api.listEndUsers, api.listDevices, api.listAuditEvents] });
  const columns = useMemo<Column<DeviceIdentity>[]>(() => {
    const all: Column<DeviceIdentity>[] = [
      { key: 'deviceName', header: t('detail.deviceName'), render: (d) => d.deviceName },
      { key: 'createdAt', header: t('detail.deviceCreated'), shrink: true, hiddenOnPhone: true, render: (d) => <UtcTime iso={d.createdAt} /> },
      {
        key: 'lastUsedAt',
        header: t('detail.deviceLastUsed'),
        shrink: true,
        hiddenOnPhone: true,
        render: (d) => (d.lastUsedAt ? <UtcTime iso={d.lastUsedAt} /> : t('detail.notUsed')),
      },
      {
        key: 'status',
        header: t('list.status'),
        shrink: true,
        render: (d) => <StatusBadge tone={d.revoked ? 'negative' : 'positive'}>{d.revoked ? t('detail.revoked') : t('list.active')}</StatusBadge>,
      },
    ];
    if (!canChange) return all;
    return [
      ...all,
      {
        key: 'revoke',
        header: t('detail.revoke'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (d) =>
          d.revoked ? null : (
            <Button
              variant="subtle"
              size="compact-sm"
              className={classes.revoke}
              aria-label={t('detail.revokeOf', { device: d.deviceName })}
              onClick={() => {
                setAsked(d);
                setOpen(true);
              }}
            >
              {t('detail.revoke')}
            </Button>
          ),
      },
    ];
  }, [t, canChange]);
  return (
    <>
      <StaticTable label={t('detail.devices')} columns={columns} rows={devices} rowKey={(d) => d.mpinId} empty={t('detail.devicesNone')} />
      <ConfirmModal
        opened={open}
        title={t('actions.revokeConfirmTitle')}
        message={asked ? t('actions.revokeConfirmText', { device: asked.deviceName, user: user.identity }) : ''}
        confirmLabel={t('detail.revoke')}
        danger
        loading={revoke.isPending}
        onConfirm={() => {
          if (!asked) return;
          revoke.mutate(
            { params: { project: projectId, mpinId: asked.mpinId }, body: { reason: REVOCATION_REASON } },
            {
              onSuccess: () => notifySuccess(t('actions.revokedDone')),
              onError: notifyRawError,
              onSettled: () => setOpen(false),
            },
          );
        }}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
