import { DEVICE_LIST_DEFAULT_SORT, DEVICE_SORT_FIELDS, type DeviceIdentity } from '@latchkey/domain';
import { Select, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { CellText } from '../../../components/list/cell-text.tsx';
import { DataList } from '../../../components/list/data-list.tsx';
import type { Column } from '../../../components/list/data-table.tsx';
import { DateRangeFilter } from '../../../components/list/date-range-filter.tsx';
import { ExportMenu } from '../../../components/list/export-menu.tsx';
import type { ActiveFilter } from '../../../components/list/filter-bar.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { isApiError } from '../../../lib/api/index.ts';
import { useFilterText } from '../../../lib/list-state/use-filter-text.ts';
import { useMonthListState } from '../../../lib/list-state/use-ranged-list.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { exportDevices, useDevices } from '../api/use-devices.ts';
import { useRevokeDevice } from '../api/use-revoke-device.ts';
import { BulkRevocation } from '../components/bulk-revocation.tsx';
import classes from '../components/devices.module.css';
import { RevokeDeviceButton } from '../components/revoke-device-button.tsx';
import '../texts.ts';

/** spec §9: devices by createdAt descending, in the current month; spec §7: the filters. */
const LIST_DEFAULTS = {
  ...DEVICE_LIST_DEFAULT_SORT,
  sortFields: DEVICE_SORT_FIELDS,
  filterKeys: ['userId', 'deviceName', 'ip', 'revoked', 'fromDate', 'toDate'],
};

/** spec §2 "Devices list", §4 Device, §8 revocation failure. */
export default function DevicesPage() {
  const { t } = useTranslation('devices');
  const { t: tu } = useTranslation('ui');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const { list, month } = useMonthListState(LIST_DEFAULTS);
  const devices = useDevices(project.id, list.state);
  const { filters } = list.state;
  const setFilter = list.setFilter;
  const [userId, setUserId] = useFilterText(filters['userId'] ?? '', (value) => setFilter('userId', value));
  const [deviceName, setDeviceName] = useFilterText(filters['deviceName'] ?? '', (value) => setFilter('deviceName', value));
  const [ip, setIp] = useFilterText(filters['ip'] ?? '', (value) => setFilter('ip', value));
  // The device asked about; it stays while the dialog closes, so the closing dialog keeps its text.
  const [asked, setAsked] = useState<DeviceIdentity | null>(null);
  const [asking, setAsking] = useState(false);
  // spec §8: a failed revocation shows on its row's button (the server's reason, by mpinId).
  const [failures, setFailures] = useState<Record<string, string>>({});
  const revoke = useRevokeDevice(project.id);
  // spec §4: a closed project is read-only; the server refuses revocations there too.
  const canRevoke = project.enabled;
  // The identity users sign in with: an email address, or the project's user ID (spec §3 Project identityType).
  const userLabel = project.identityType === 'email' ? t('list.email') : project.verificationOptions.identityTypeLabel || t('list.userId');
  const statusText = (revoked: string | undefined) => (revoked === 'true' ? t('list.revoked') : revoked === 'false' ? t('list.active') : undefined);

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
        setFailures((current) => ({ ...current, [mpinId]: isApiError(error) || error instanceof Error ? error.message : '' }));
      },
    });
  };

  const columns = useMemo<Column<DeviceIdentity>[]>(() => {
    const all: Column<DeviceIdentity>[] = [
      {
        key: 'userId',
        header: userLabel,
        sortField: 'userId',
        render: (device) => (
          <Text size="sm" fw={500} className={classes.user}>
            {device.userId}
          </Text>
        ),
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
        render: (device) => <RevokeDeviceButton device={device} failure={failures[device.mpinId]} onRevoke={ask} />,
      },
    ];
  }, [t, userLabel, canRevoke, failures]);

  const active: ActiveFilter[] = [];
  if (filters['userId']) active.push({ key: 'userId', label: userLabel, value: filters['userId'] });
  if (filters['deviceName']) active.push({ key: 'deviceName', label: t('list.deviceName'), value: filters['deviceName'] });
  if (filters['ip']) active.push({ key: 'ip', label: t('list.ip'), value: filters['ip'] });
  const status = statusText(filters['revoked']);
  if (status) active.push({ key: 'revoked', label: t('list.status'), value: status });

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
      <DataList
        label={t('list.label')}
        list={list}
        result={devices}
        columns={columns}
        rowKey={(device) => device.mpinId}
        activeFilters={active}
        filters={
          <>
            <TextInput
              label={userLabel}
              autoComplete="off"
              leftSection={<IconSearch size={16} aria-hidden="true" />}
              value={userId}
              onChange={(event) => setUserId(event.currentTarget.value)}
            />
            <TextInput
              label={t('list.deviceName')}
              autoComplete="off"
              value={deviceName}
              onChange={(event) => setDeviceName(event.currentTarget.value)}
            />
            <TextInput label={t('list.ip')} autoComplete="off" value={ip} onChange={(event) => setIp(event.currentTarget.value)} />
            <Select
              label={t('list.status')}
              placeholder={tu('list.any')}
              data={[
                { value: 'false', label: t('list.active') },
                { value: 'true', label: t('list.revoked') },
              ]}
              value={filters['revoked'] ?? null}
              onChange={(value) => setFilter('revoked', value ?? '')}
              clearable
              clearButtonProps={{ 'aria-label': tu('list.clearFilter', { label: t('list.status') }) }}
              allowDeselect
            />
            <DateRangeFilter fromDate={filters['fromDate'] ?? ''} toDate={filters['toDate'] ?? ''} defaults={month} onChange={setFilter} />
          </>
        }
      />
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
