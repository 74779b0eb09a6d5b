import { isCustomVerification, VERIFICATION_METHODS, type VerificationOptions } from '@latchkey/domain';
import { Radio, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { GlobalUnlockField } from '../components/global-unlock-field.tsx';
import { LabelledChoice } from '../components/labelled-choice.tsx';
import { ProjectSettingsFrame } from '../components/project-settings-frame.tsx';
import type { SettingsDraft } from '../components/use-settings-draft.ts';

/** spec §2 "Settings pages" User Verification (/project/{project}/userverification); §4 "Verification"; §5. */
export default function UserVerificationPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  return (
    <ProjectSettingsFrame page="verification" title={tc('pages.projectUserVerification')} description={t('verification.intro')}>
      {(draft) => <VerificationFields draft={draft} />}
    </ProjectSettingsFrame>
  );
}

function VerificationFields({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const options = draft.value.verificationOptions;
  const custom = isCustomVerification(draft.value);
  const setOption = (path: string, change: (o: VerificationOptions) => VerificationOptions) =>
    draft.set(`verificationOptions.${path}`, (s) => ({ ...s, verificationOptions: change(s.verificationOptions) }));
  const message = (path: string) => {
    const issue = draft.issue(path);
    return issue ? tc(validationKey(issue)) : undefined;
  };
  // spec §5: the custom fields are editable only for the Custom method.
  const customHelp = custom ? undefined : t('verification.customOnly');

  return (
    <>
      <Radio.Group
        label={t('verification.method')}
        value={options.method}
        onChange={(value) => {
          const method = VERIFICATION_METHODS.find((m) => m === value);
          if (method) setOption('method', (o) => ({ ...o, method }));
        }}
      >
        <Stack gap="sm" mt="xs">
          {(['codeEmail', 'standardEmail', 'fullCustom'] as const).map((method) => (
            <Radio key={method} value={method} label={t(`verification.methods.${method}`)} description={t(`verification.methodHelp.${method}`)} />
          ))}
        </Stack>
      </Radio.Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
        <TextInput
          label={t('verification.url')}
          description={customHelp}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          disabled={!custom}
          value={options.url}
          onChange={(event) => {
            const url = event.currentTarget.value;
            setOption('url', (o) => ({ ...o, url }));
          }}
          error={message('verificationOptions.url')}
        />
        <TextInput
          label={t('verification.customText')}
          description={custom ? t('verification.customTextHelp') : customHelp}
          autoComplete="off"
          disabled={!custom}
          value={options.customText}
          onChange={(event) => {
            const customText = event.currentTarget.value;
            setOption('customText', (o) => ({ ...o, customText }));
          }}
          error={message('verificationOptions.customText')}
        />
      </SimpleGrid>
      <GlobalUnlockField
        label={t('verification.confirmationUrl')}
        description={customHelp}
        disabled={!custom}
        value={options.confirmationURL}
        onChange={(confirmationURL) => setOption('confirmationURL', (o) => ({ ...o, confirmationURL }))}
        issue={draft.issue('verificationOptions.confirmationURL')}
      />
      <LabelledChoice
        label={t('verification.identityType')}
        // spec §4: the Email Link method forces the email identity type.
        disabled={options.method === 'standardEmail'}
        value={draft.value.identityType}
        onChange={(identityType) => draft.set('identityType', (s) => ({ ...s, identityType }))}
        data={(['alphanumeric', 'email'] as const).map((i) => ({ value: i, label: t(`verification.identityTypes.${i}`) }))}
      />
      <TextInput
        label={t('verification.identityTypeLabel')}
        description={t('verification.identityTypeLabelHelp')}
        autoComplete="off"
        value={options.identityTypeLabel}
        onChange={(event) => {
          const identityTypeLabel = event.currentTarget.value;
          setOption('identityTypeLabel', (o) => ({ ...o, identityTypeLabel }));
        }}
        error={message('verificationOptions.identityTypeLabel')}
      />
    </>
  );
}
