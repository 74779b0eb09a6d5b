import { isWebhookUrl, WEBHOOK_EVENT_TYPES, type WebhookBody, type WebhookEventType } from '@latchkey/domain';
import { Checkbox, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { SettingSwitch } from '../../../components/setting-switch.tsx';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import type { webhooksTexts } from '../texts.en.ts';
import classes from './webhooks.module.css';

/** A type's key among the texts (a dot there would be read as nesting). */
const eventTypeKey = (type: WebhookEventType) => type.replace('.', '_') as keyof typeof webhooksTexts.eventTypes;

/** An endpoint's fields as the form holds them. */
export interface WebhookDraft {
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  enabled: boolean;
}

export const emptyWebhook: WebhookDraft = { url: '', description: '', eventTypes: [], enabled: true };

/** The draft's body, when it is one the API takes (the domain's rules: a public http(s) address is checked by the server). */
export function webhookBody(draft: WebhookDraft): WebhookBody | null {
  const url = draft.url.trim();
  if (!isWebhookUrl(url) || draft.eventTypes.length === 0) return null;
  return { url, description: draft.description.trim(), eventTypes: draft.eventTypes, enabled: draft.enabled };
}

/** A webhook form's state: the draft, and whether the URL field was left (its error shows then). */
export function useWebhookDraft(initial: WebhookDraft) {
  const [draft, setDraft] = useState(initial);
  const [urlTouched, setUrlTouched] = useState(false);
  return { draft, setDraft, urlTouched, touchUrl: () => setUrlTouched(true) };
}

/** URL, description, the event types (each with what it tells) and Enabled. */
export function WebhookFields({
  form,
  serverUrlError,
  disabled = false,
}: {
  form: ReturnType<typeof useWebhookDraft>;
  serverUrlError?: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation('webhooks');
  const { t: tc } = useTranslation();
  const { draft, setDraft } = form;
  const urlError =
    form.urlTouched && draft.url.trim() !== '' && !isWebhookUrl(draft.url.trim()) ? tc('validation.invalid_url') : (serverUrlError ?? undefined);
  return (
    <Stack gap="lg">
      <TextInput
        label={t('form.url')}
        description={t('form.urlHint')}
        required
        autoComplete="off"
        placeholder="https://"
        value={draft.url}
        disabled={disabled}
        onChange={(event) => setDraft({ ...draft, url: event.currentTarget.value })}
        onBlur={form.touchUrl}
        error={urlError}
      />
      <TextInput
        label={t('form.description')}
        autoComplete="off"
        value={draft.description}
        disabled={disabled}
        onChange={(event) => setDraft({ ...draft, description: event.currentTarget.value })}
      />
      <Checkbox.Group
        label={t('form.events')}
        required
        value={draft.eventTypes}
        onChange={(values) => setDraft({ ...draft, eventTypes: WEBHOOK_EVENT_TYPES.filter((type) => values.includes(type)) })}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <Checkbox
              key={type}
              value={type}
              disabled={disabled}
              label={<span className={classes.type}>{type}</span>}
              description={t(`eventTypes.${eventTypeKey(type)}`)}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <SettingSwitch
        label={t('form.enabled')}
        description={t('form.enabledHint')}
        checked={draft.enabled}
        disabled={disabled}
        onChange={(enabled) => setDraft({ ...draft, enabled })}
      />
    </Stack>
  );
}
