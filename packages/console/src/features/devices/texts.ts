import { addTexts } from '../../lib/i18n/index.ts';

/**
 * Texts of the devices page (namespace `devices`), loaded with it. The page title stays in the main
 * catalogue (`pages.projectDevices`), and so does the spec §8 notification title
 * (`notifications.error.revocation_failed`).
 */
export const devicesTexts = {
  list: {
    intro: 'The passkeys your users registered, by the date they were created. Revoke one that is lost or no longer trusted.',
    label: 'Devices',
    email: 'Email',
    userId: 'User ID',
    deviceName: 'Device name',
    ip: 'IP address',
    createdAt: 'Created at',
    status: 'Status',
    active: 'Active',
    revoked: 'Revoked',
    actions: 'Actions',
    revoke: 'Revoke',
    revokeOf: 'Revoke {{device}} of {{user}}',
    noAddress: 'Unknown',
  },
  revoke: {
    title: 'Revoke device',
    text: 'Do you want to revoke the device “{{device}}” of {{user}}? Its passkey stops signing in at once and its sign-in sessions end. This cannot be undone.',
    confirm: 'Revoke',
  },
} as const;

addTexts('devices', devicesTexts);
