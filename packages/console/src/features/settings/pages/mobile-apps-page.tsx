import { guards, type ProjectSettings } from '@latchkey/domain';
import { Fieldset, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { usePermission } from '../../../lib/use-permission.ts';
import { GlobalUnlockField } from '../components/global-unlock-field.tsx';
import { ProjectSettingsFrame } from '../components/project-settings-frame.tsx';
import { ServiceAccountKeyField } from '../components/service-account-key-field.tsx';
import type { SettingsDraft } from '../components/use-settings-draft.ts';
import { SettingSwitch } from '../../../components/setting-switch.tsx';
import classes from '../components/settings.module.css';

/** spec §2 "Settings pages" Mobile Applications (/project/{project}/mobileapps); §5 mobile rules; §6 global unlock. */
export default function MobileAppsPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  return (
    <ProjectSettingsFrame page="mobile" title={tc('pages.projectMobileApps')} description={t('mobile.intro')}>
      {(draft) => <MobileFields draft={draft} />}
    </ProjectSettingsFrame>
  );
}

type StoreField = 'mobileAndroidLocation' | 'mobileIOSLocation';
type AssociationField = 'associationAndroid' | 'associationIOS';

function MobileFields({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  // The plan's entitlement (pushOptions.allowed) is an administrator of all projects' to give.
  const mayAllowPush = usePermission(guards.reopenProject);
  const v = draft.value;
  const push = v.pushOptions;
  const setText = (field: StoreField | AssociationField | 'customMobileDomain', value: string) =>
    draft.set(field, (s): ProjectSettings => ({ ...s, [field]: value }));
  const message = (path: string) => {
    const issue = draft.issue(path);
    return issue ? tc(validationKey(issue)) : undefined;
  };
  const platform = (label: string, association: AssociationField, associationLabel: string, store: StoreField, storeLabel: string) => (
    <Fieldset legend={label} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
      <Stack gap="md">
        <TextInput
          label={storeLabel}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={v[store]}
          onChange={(event) => setText(store, event.currentTarget.value)}
          error={message(store)}
        />
        <GlobalUnlockField
          label={associationLabel}
          value={v[association]}
          onChange={(value) => setText(association, value)}
          issue={draft.issue(association)}
          multiline
        />
      </Stack>
    </Fieldset>
  );

  return (
    <>
      <GlobalUnlockField
        label={t('mobile.deepLinkDomain')}
        description={t('mobile.deepLinkDomainHelp')}
        value={v.customMobileDomain}
        onChange={(value) => setText('customMobileDomain', value)}
        issue={draft.issue('customMobileDomain')}
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        {platform(t('mobile.android'), 'associationAndroid', t('mobile.associationAndroid'), 'mobileAndroidLocation', t('mobile.androidStore'))}
        {platform(t('mobile.ios'), 'associationIOS', t('mobile.associationIOS'), 'mobileIOSLocation', t('mobile.iosStore'))}
      </SimpleGrid>
      <Fieldset legend={t('mobile.push')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
        <Stack gap="md">
          {mayAllowPush ? (
            <SettingSwitch
              label={t('mobile.pushAllowed')}
              checked={push.allowed}
              onChange={(allowed) =>
                draft.set('pushOptions.allowed', (s) => ({
                  ...s,
                  pushOptions: { ...s.pushOptions, allowed, enabled: allowed && s.pushOptions.enabled },
                }))
              }
            />
          ) : null}
          <SettingSwitch
            label={t('mobile.push')}
            description={push.allowed || push.enabled ? t('mobile.pushHelp') : t('mobile.pushNotAllowed')}
            checked={push.enabled}
            disabled={!push.allowed && !push.enabled}
            onChange={(enabled) =>
              draft.set(['pushOptions.enabled', 'pushOptions.projectId'], (s) => ({ ...s, pushOptions: { ...s.pushOptions, enabled } }))
            }
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <TextInput
              label={t('mobile.firebaseProjectId')}
              description={t('mobile.firebaseProjectIdHelp')}
              readOnly
              variant="filled"
              value={push.projectId}
              error={message('pushOptions.projectId')}
            />
          </SimpleGrid>
          <ServiceAccountKeyField draft={draft} />
        </Stack>
      </Fieldset>
    </>
  );
}
