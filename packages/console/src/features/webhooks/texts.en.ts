/**
 * Texts of the webhooks pages (namespace `webhooks`, issue 24), loaded with them. The page titles
 * stay in the main catalogue (`pages.projectWebhooks`, `pages.webhookDetail`).
 */
export const webhooksTexts = {
  list: {
    intro: 'Endpoints that receive this project’s events as they happen, signed per Standard Webhooks.',
    label: 'Webhook endpoints',
    add: 'Add endpoint',
    url: 'URL',
    events: 'Events',
    eventsCount_one: '{{count}} event',
    eventsCount_other: '{{count}} events',
    status: 'Status',
    enabled: 'Enabled',
    disabled: 'Disabled',
    failing: 'Failing',
    open: 'Open',
    openOf: 'Open {{url}}',
    none: 'No endpoint yet. Add one to receive events.',
    loadFailed: 'Failed to load the webhooks',
  },
  form: {
    url: 'Endpoint URL',
    urlHint: 'Where the events are posted. It must be a public address.',
    description: 'Description',
    enabled: 'Enabled',
    enabledHint: 'A disabled endpoint is sent nothing.',
    events: 'Events to send',
    create: 'Add endpoint',
    createTitle: 'Add webhook endpoint',
    createFailed: 'Failed to add the endpoint',
    saveFailed: 'Failed to save the endpoint',
    saved: 'Endpoint saved',
  },
  eventTypes: {
    device_registered: 'A passkey was registered',
    sign_in_succeeded: 'A user signed in',
    sign_in_failed: 'A sign-in failed',
    sign_in_refused: 'A sign-in was refused',
    device_revoked: 'A passkey was revoked',
    user_blocked: 'A user was blocked',
    user_deleted: 'A user was deleted',
    settings_changed: 'The project’s settings changed',
    application_changed: 'An application changed',
  },
  secret: {
    title: 'Signing secret',
    intro: 'Verify each message’s webhook-signature with this secret. It is shown only now: copy it to your receiver.',
    label: 'Secret',
  },
  detail: {
    loadFailed: 'Failed to load the webhook',
    disabledReason: 'Disabled by the server',
    failingSince: 'Deliveries have failed since {{since}} UTC. After a day of failures the endpoint is disabled.',
    test: 'Send test event',
    testSent: 'Test event queued',
    log: 'Delivery log',
    logIntro: 'The last week of messages, newest first.',
    logNone: 'Nothing sent yet.',
    time: 'Time',
    event: 'Event',
    result: 'Result',
    attempts: 'Attempts',
    answer: 'Last answer',
    pending: 'Pending',
    delivered: 'Delivered',
    failed: 'Failed',
    resend: 'Resend',
    resendOf: 'Resend the {{event}} message of {{time}}',
    resent: 'Message queued again',
    deleteTitle: 'Delete this endpoint',
    deleteText: 'It is sent nothing more, and its delivery log goes.',
    delete: 'Delete',
    deleteConfirmTitle: 'Delete endpoint',
    deleteConfirmText: 'Delete the endpoint {{url}}? This cannot be undone.',
    deleted: 'Endpoint deleted',
  },
} as const;

declare module '../../lib/i18n/namespaces' {
  interface TextNamespaces {
    webhooks: typeof webhooksTexts;
  }
}
