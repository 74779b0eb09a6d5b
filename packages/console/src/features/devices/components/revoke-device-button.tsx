import type { DeviceIdentity } from '@latchkey/domain';
import { Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconBan } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import classes from './devices.module.css';

interface RevokeDeviceButtonProps {
  device: DeviceIdentity;
  /** What went wrong with the last failed revocation of this device (lib/error-message.ts), if one failed. */
  failure: string | undefined;
  onRevoke: (device: DeviceIdentity) => void;
}

/**
 * The row's revoke action (spec §2 "Devices list": active devices only). spec §8: after a failed
 * revocation the button itself says 'Failed to revoke device', with the reason under it,
 * and asking again is one click away; if the device turned out to be revoked after all, the
 * failure stays as text beside the Revoked status.
 */
export function RevokeDeviceButton({ device, failure, onRevoke }: RevokeDeviceButtonProps) {
  const { t } = useTranslation('devices');
  const { t: tc } = useTranslation();
  const reasonId = useId();
  if (failure === undefined) {
    if (device.revoked) return null;
    return (
      <Button
        variant="subtle"
        size="compact-sm"
        className={classes.revoke}
        leftSection={<IconBan size={16} aria-hidden="true" />}
        // The visible "Revoke" starts the name, which says which device it revokes.
        aria-label={t('list.revokeOf', { device: device.deviceName, user: device.userId })}
        onClick={() => onRevoke(device)}
      >
        {t('list.revoke')}
      </Button>
    );
  }
  const reason = failure ? (
    <Text id={reasonId} size="xs" className={classes.failure}>
      {failure}
    </Text>
  ) : null;
  if (device.revoked) {
    // Revoked meanwhile (by someone else): nothing left to try again, the failure is said as text.
    return (
      <Stack gap={2} align="flex-end">
        <Text size="sm" fw={600} className={classes.failure}>
          {tc('notifications.error.revocation_failed')}
        </Text>
        {reason}
      </Stack>
    );
  }
  return (
    <Stack gap={2} align="flex-end">
      <Button
        variant="light"
        size="compact-sm"
        className={classes.revokeFailed}
        leftSection={<IconAlertCircle size={16} aria-hidden="true" />}
        aria-describedby={failure ? reasonId : undefined}
        onClick={() => onRevoke(device)}
      >
        {tc('notifications.error.revocation_failed')}
      </Button>
      {reason}
    </Stack>
  );
}
