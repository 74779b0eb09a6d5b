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
  /** Revoking every device of the list's filter (docs/decisions/0019 "Bulk revocation"). */
  bulk: {
    open: 'Revoke all matching',
    none: 'No active device matches the filter: nothing to revoke.',
    countFailed: 'Failed to count the devices to revoke',
    title_one: 'Revoke {{number}} device',
    title_other: 'Revoke {{number}} devices',
    text_one:
      'The {{number}} active device matching the current filter, registered up to {{until}} UTC, will be revoked: its passkey stops signing in at once and its sign-in sessions end. This cannot be undone.',
    text_other:
      'All {{number}} active devices matching the current filter, registered up to {{until}} UTC, will be revoked: their passkeys stop signing in at once and their sign-in sessions end. This cannot be undone.',
    confirm_one: 'Revoke {{number}} device',
    confirm_other: 'Revoke {{number}} devices',
    runningTitle: 'Revoking devices',
    progress: '{{revoked}} of {{total}} revoked',
    resumable: 'Each device revoked stays revoked. If this stops, revoke all matching again to finish the rest.',
    stop: 'Stop',
    done_one: '{{revoked}} device revoked',
    done_other: '{{revoked}} devices revoked',
    stopped: 'Stopped after revoking {{revoked}} of {{total}} devices. Revoke all matching again to finish.',
    failed: 'Revoked {{revoked}} of {{total}} devices, then failed',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    devices: typeof devicesTexts;
  }
}
