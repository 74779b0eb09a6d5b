import type { DeviceIdentity } from '@latchkey/domain';
import { Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconBan } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DANGER_COLOR } from '../../../components/confirm-modal.tsx';
import classes from './devices.module.css';
import '../texts.ts';

interface RevokeDeviceButtonProps {
  device: DeviceIdentity;
  /** The server's message of the last failed revocation of this device, if one failed. */
  failure: string | undefined;
  onRevoke: (device: DeviceIdentity) => void;
}

/**
 * The row's revoke action (spec §2 "Devices list": active devices only). spec §8: after a failed
 * revocation the button itself says 'Failed to revoke device', with the server's reason under it,
 * and asking again is one click away (unless the device turned out to be revoked after all).
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
        color={DANGER_COLOR}
        size="compact-sm"
        leftSection={<IconBan size={16} aria-hidden="true" />}
        // The visible "Revoke" starts the name, which says which device it revokes.
        aria-label={t('list.revokeOf', { device: device.deviceName, user: device.userId })}
        onClick={() => onRevoke(device)}
      >
        {t('list.revoke')}
      </Button>
    );
  }
  return (
    <Stack gap={2} align="flex-end">
      <Button
        variant="light"
        color={DANGER_COLOR}
        size="compact-sm"
        leftSection={<IconAlertCircle size={16} aria-hidden="true" />}
        aria-describedby={failure ? reasonId : undefined}
        disabled={device.revoked}
        onClick={() => onRevoke(device)}
      >
        {tc('notifications.error.revocation_failed')}
      </Button>
      {failure ? (
        <Text id={reasonId} size="xs" className={classes.failure}>
          {failure}
        </Text>
      ) : null}
    </Stack>
  );
}
