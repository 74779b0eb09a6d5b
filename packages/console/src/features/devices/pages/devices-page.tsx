import { deviceList, type DeviceIdentity } from '@latchkey/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { CellText } from '../../../components/list/cell-text.tsx';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { useDeclaredList } from '../../../components/list/declared-filters.tsx';
import { ExportMenu } from '../../../components/list/export-menu.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { useErrorMessage } from '../../../lib/error-message.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { api } from '../../../lib/api/index.ts';
import { rangedListCalls } from '../../../lib/list-state/declared-calls.ts';
import { useRevokeDevice } from '../api/use-revoke-device.ts';
import { BulkRevocation } from '../components/bulk-revocation.tsx';
import classes from '../components/devices.module.css';
import { RevokeDeviceButton } from '../components/revoke-device-button.tsx';

/**
 * spec §7: GET projects/{project}/mpinids with the declared filters, sort, offset and limit; and
 * GET projects/{project}/mpinids/export, the list's filter as a file.
 */
const { useList: useDevices, exportFile: exportDevices } = rangedListCalls({
  declared: deviceList,
  name: 'devices',
  list: api.listDevices,
  export: api.exportDevices,
});

/** spec §2 "Devices list", §4 Device, §8 revocation failure. */
export default function DevicesPage() {
  const { t } = useTranslation('devices');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // The device asked about; it stays while the dialog closes, so the closing dialog keeps its text.
  const [asked, setAsked] = useState<DeviceIdentity | null>(null);
  const [asking, setAsking] = useState(false);
  // spec §8: a failed revocation shows on its row's button (its error, by mpinId; said in the language of the moment).
  const [failures, setFailures] = useState<Record<string, { error: unknown }>>({});
  const errorText = useErrorMessage();
  const revoke = useRevokeDevice(project.id);
  // spec §4: a closed project is read-only; the server refuses revocations there too.
  const canRevoke = project.enabled;
  // The identity users sign in with: an email address, or the project's user ID (spec §3 Project identityType).
  const userLabel = project.identityType === 'email' ? t('list.email') : project.verificationOptions.identityTypeLabel || t('list.userId');
  // spec §9: by createdAt descending, in the current month; spec §7: the filters (domain's deviceList).
  const { list, filterBar } = useDeclaredList(deviceList, {
    userId: { label: userLabel, search: true },
    deviceName: { label: t('list.deviceName') },
    ip: { label: t('list.ip') },
    revoked: {
      label: t('list.status'),
      options: [
        { value: 'false', label: t('list.active') },
        { value: 'true', label: t('list.revoked') },
      ],
    },
  });
  const devices = useDevices(project.id, list.state);
  const { filters } = list.state;

  const ask = (device: DeviceIdentity) => {
    setAsked(device);
    setAsking(true);
  };
  const confirm = () => {
    if (!asked) return;
    const { mpinId } = asked;
    revoke.mutate(mpinId, {
      onSuccess: () => {
        setAsking(false);
        setFailures(({ [mpinId]: _, ...rest }) => rest);
      },
      onError: (error) => {
        setAsking(false);
        setFailures((current) => ({ ...current, [mpinId]: { error } }));
      },
    });
  };

  const columns = useMemo<Column<DeviceIdentity>[]>(() => {
    const all: Column<DeviceIdentity>[] = [
      {
        key: 'userId',
        header: userLabel,
        sortField: 'userId',
        render: (device) => <CellText value={device.userId} className={classes.user} strong />,
      },
      {
        key: 'deviceName',
        header: t('list.deviceName'),
        sortField: 'deviceName',
        render: (device) => <span className={classes.deviceName}>{device.deviceName}</span>,
      },
      {
        key: 'ip',
        header: t('list.ip'),
        sortField: 'ip',
        hiddenOnPhone: true,
        render: (device) => <CellText value={device.ip} none={t('list.noAddress')} className={classes.address} />,
      },
      {
        key: 'createdAt',
        header: t('list.createdAt'),
        sortField: 'createdAt',
        shrink: true,
        render: (device) => <UtcTime iso={device.createdAt} />,
      },
      {
        key: 'status',
        header: t('list.status'),
        sortField: 'revoked',
        shrink: true,
        render: (device) => (
          <StatusBadge tone={device.revoked ? 'negative' : 'positive'}>{device.revoked ? t('list.revoked') : t('list.active')}</StatusBadge>
        ),
      },
    ];
    if (!canRevoke) return all;
    return [
      ...all,
      {
        key: 'actions',
        header: t('list.actions'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (device) => {
          const failed = failures[device.mpinId];
          return <RevokeDeviceButton device={device} failure={failed && (errorText(failed.error) ?? '')} onRevoke={ask} />;
        },
      },
    ];
  }, [t, userLabel, canRevoke, failures, errorText]);

  return (
    <PageFrame
      title={tc('pages.projectDevices')}
      description={t('list.intro')}
      actions={
        <>
          <ExportMenu expected={devices.data} load={(format, options) => exportDevices(project.id, list.state, format, options)} />
          {/* Revoked devices cannot be revoked again: with that filter there is nothing to ask. */}
          {canRevoke && filters['revoked'] !== 'true' ? <BulkRevocation projectId={project.id} list={list.state} /> : null}
        </>
      }
    >
      <DataList label={t('list.label')} list={list} result={devices} columns={columns} rowKey={(device) => device.mpinId} filters={filterBar} />
      <ConfirmModal
        opened={asking}
        title={t('revoke.title')}
        message={asked ? t('revoke.text', { device: asked.deviceName, user: asked.userId }) : ''}
        confirmLabel={t('revoke.confirm')}
        loading={revoke.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </PageFrame>
  );
}
