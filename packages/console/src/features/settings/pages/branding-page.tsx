import type { ProjectSettings } from '@latchkey/domain';
import { SimpleGrid, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { ProjectSettingsFrame } from '../components/project-settings-frame.tsx';
import type { SettingsDraft } from '../components/use-settings-draft.ts';

type BrandingField = 'supportEmail' | 'supportPhone' | 'helpUrl' | 'logoUrl' | 'displayName';

/** spec §2 "Settings pages" Branding (/project/{project}/branding); spec §5's branding rules. */
export default function BrandingPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  return (
    <ProjectSettingsFrame page="branding" title={tc('pages.projectBranding')} description={t('branding.intro')}>
      {(draft) => <BrandingFields draft={draft} />}
    </ProjectSettingsFrame>
  );
}

function BrandingFields({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const field = (name: BrandingField, label: string, extra: { description?: string; type?: string; inputMode?: 'email' | 'tel' | 'url' } = {}) => {
    const issue = draft.issue(name);
    return (
      <TextInput
        label={label}
        autoComplete="off"
        spellCheck={false}
        {...extra}
        value={draft.value[name]}
        onChange={(event) => {
          const value = event.currentTarget.value;
          draft.set(name, (s): ProjectSettings => ({ ...s, [name]: value }));
        }}
        error={issue ? tc(validationKey(issue)) : undefined}
      />
    );
  };
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
      {field('displayName', t('branding.displayName'), { description: t('branding.displayNameHelp') })}
      {field('logoUrl', t('branding.logoUrl'), { description: t('branding.logoUrlHelp'), type: 'url', inputMode: 'url' })}
      {field('supportEmail', t('branding.supportEmail'), { description: t('branding.supportEmailHelp'), type: 'email', inputMode: 'email' })}
      {field('supportPhone', t('branding.supportPhone'), { description: t('branding.supportPhoneHelp'), type: 'tel', inputMode: 'tel' })}
      {field('helpUrl', t('branding.helpUrl'), { description: t('branding.helpUrlHelp'), type: 'url', inputMode: 'url' })}
    </SimpleGrid>
  );
}
