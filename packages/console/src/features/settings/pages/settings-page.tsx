import {
  EMAIL_RECOVERY_DELAYS,
  IMPORTED_PASSWORD_DAYS,
  isPrimaryEditable,
  LANGUAGES,
  PASSKEY_ENROLLMENT_AFTER_MAX,
  PASSKEY_ENROLLMENT_MODES,
  PIN_LENGTH_MAX,
  PIN_LENGTH_MIN,
  THEMES,
  type LoginOptions,
  type PasskeyEnrollment,
} from '@latchkey/domain';
import { Fieldset, NumberInput, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { CloseProject } from '../components/close-project.tsx';
import { DomainPasskeysNote } from '../components/domain-passkeys-note.tsx';
import { CorsOriginsField } from '../components/cors-origins-field.tsx';
import { LabelledChoice } from '../components/labelled-choice.tsx';
import { GlobalUnlockField } from '../components/global-unlock-field.tsx';
import { ProjectSettingsFrame } from '../components/project-settings-frame.tsx';
import type { SettingsDraft } from '../components/use-settings-draft.ts';
import { SettingSwitch } from '../../../components/setting-switch.tsx';
import classes from '../components/settings.module.css';

/** spec §2 "Settings pages" General (/project/{project}/settings), with closing the project in its danger zone. */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  return (
    <ProjectSettingsFrame
      page="general"
      title={tc('pages.projectSettings')}
      description={t('general.intro')}
      dangerZone={(document) => (document.data.enabled ? <CloseProject document={document} /> : null)}
    >
      {(draft) => <GeneralFields draft={draft} />}
    </ProjectSettingsFrame>
  );
}

function GeneralFields({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const v = draft.value;
  const project = useCurrentProject();
  const message = (path: string) => {
    const issue = draft.issue(path);
    return issue ? tc(validationKey(issue)) : undefined;
  };
  return (
    <>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" verticalSpacing="lg">
        <TextInput
          label={t('general.title')}
          description={t('general.titleHelp')}
          required
          autoComplete="off"
          value={v.name}
          onChange={(event) => {
            const name = event.currentTarget.value;
            draft.set('name', (s) => ({ ...s, name }));
          }}
          error={message('name')}
        />
        <Select
          label={t('general.language')}
          description={t('general.languageHelp')}
          data={LANGUAGES.map((l) => ({ value: l, label: t(`general.languages.${l}`) }))}
          value={v.midentityLanguage}
          allowDeselect={false}
          onChange={(value) => {
            const language = LANGUAGES.find((l) => l === value);
            if (language) draft.set('midentityLanguage', (s) => ({ ...s, midentityLanguage: language }));
          }}
        />
        <Select
          label={t('general.theme')}
          data={THEMES.map((theme) => ({ value: theme, label: t(`general.themes.${theme}`) }))}
          value={v.midentityTheme}
          allowDeselect={false}
          onChange={(value) => {
            const theme = THEMES.find((th) => th === value);
            if (theme) draft.set('midentityTheme', (s) => ({ ...s, midentityTheme: theme }));
          }}
        />
        <NumberInput
          label={t('general.pinLength')}
          description={t('general.pinLengthHelp')}
          min={PIN_LENGTH_MIN}
          max={PIN_LENGTH_MAX}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          value={v.pinLength}
          onChange={(value) => draft.set('pinLength', (s) => ({ ...s, pinLength: typeof value === 'number' ? value : Number.NaN }))}
          error={message('pinLength')}
        />
      </SimpleGrid>
      <GlobalUnlockField
        label={t('general.domain')}
        description={t('general.domainHelp')}
        value={v.customDomain}
        onChange={(customDomain) => draft.set('customDomain', (s) => ({ ...s, customDomain }))}
        issue={draft.issue('customDomain')}
      />
      <DomainPasskeysNote projectId={project.id} saved={project.customDomain} typed={v.customDomain} fallback={v.verificationOptions.method} />
      <CorsOriginsField draft={draft} />
      <LoginMethods draft={draft} />
      <PasskeyEnrollmentField draft={draft} />
      <Fieldset legend={t('general.quickCodeSection')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
        <div className={classes.switches}>
          <SettingSwitch
            label={t('general.quickCode')}
            description={t('general.quickCodeHelp')}
            checked={v.enableRegistrationCode}
            onChange={(on) => draft.set('enableRegistrationCode', (s) => ({ ...s, enableRegistrationCode: on }))}
          />
          <SettingSwitch
            // spec §4: with the QuickCode off, the limit is off too.
            label={t('general.quickCodeLimit')}
            description={t('general.quickCodeLimitHelp')}
            checked={v.limitRegCodeVerified}
            disabled={!v.enableRegistrationCode}
            onChange={(on) => draft.set('limitRegCodeVerified', (s) => ({ ...s, limitRegCodeVerified: on }))}
          />
        </div>
      </Fieldset>
      <AccountRecovery draft={draft} />
      <ImportedUsers draft={draft} />
    </>
  );
}

/** Issue 37, docs/decisions/0051: how long a new passkey waits after an email-only sign-in of a person who holds passkeys. */
function AccountRecovery({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  return (
    <Fieldset legend={t('general.recoverySection')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
      <Select
        label={t('general.emailRecoveryDelay')}
        description={t('general.emailRecoveryDelayHelp')}
        data={EMAIL_RECOVERY_DELAYS.map((delay) => ({ value: delay, label: t(`general.emailRecoveryDelays.${delay}`) }))}
        value={draft.value.emailRecoveryDelay}
        allowDeselect={false}
        maw={360}
        onChange={(value) => {
          const delay = EMAIL_RECOVERY_DELAYS.find((d) => d === value);
          if (delay) draft.set('emailRecoveryDelay', (s) => ({ ...s, emailRecoveryDelay: delay }));
        }}
      />
    </Fieldset>
  );
}

/** Issue 37 "Migration", docs/decisions/0052: how long an imported password hash waits for its one sign-in. */
function ImportedUsers({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const issue = draft.issue('importedPasswordDays');
  return (
    <Fieldset legend={t('general.importSection')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
      <NumberInput
        label={t('general.importedPasswordDays')}
        description={t('general.importedPasswordDaysHelp', { min: IMPORTED_PASSWORD_DAYS.min, max: IMPORTED_PASSWORD_DAYS.max })}
        min={IMPORTED_PASSWORD_DAYS.min}
        max={IMPORTED_PASSWORD_DAYS.max}
        clampBehavior="none"
        allowDecimal={false}
        allowNegative={false}
        value={draft.value.importedPasswordDays}
        onChange={(value) =>
          draft.set('importedPasswordDays', (s) => ({ ...s, importedPasswordDays: typeof value === 'number' ? value : Number.NaN }))
        }
        error={issue ? tc(validationKey(issue)) : undefined}
        maw={360}
      />
    </Fieldset>
  );
}

/**
 * spec §2 "login methods (Browser Login, Mobile Login, primary)", §4 "Login options" as the user
 * edits (applied by the draft), §5 'You must select at least one login method'.
 */
function LoginMethods({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const options = draft.value.loginOptions;
  const set = (path: string, change: (o: LoginOptions) => LoginOptions) => draft.set(path, (s) => ({ ...s, loginOptions: change(s.loginOptions) }));
  // The rule of §5 is about the pair: either switch touches it.
  const issue = draft.issue('loginOptions');
  return (
    <Fieldset legend={t('general.loginMethods')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
      <Stack gap="md">
        <div className={classes.switches}>
          <SettingSwitch
            label={t('general.browserLogin')}
            description={t('general.browserLoginHelp')}
            checked={options.browserLoginEnabled}
            onChange={(on) => set('loginOptions', (o) => ({ ...o, browserLoginEnabled: on }))}
          />
          <SettingSwitch
            label={t('general.mobileLogin')}
            description={t('general.mobileLoginHelp')}
            checked={options.mobileLoginEnabled}
            onChange={(on) => set('loginOptions', (o) => ({ ...o, mobileLoginEnabled: on }))}
          />
        </div>
        {issue ? (
          <Text size="sm" c="var(--mantine-color-error)" role="alert">
            {tc(validationKey(issue))}
          </Text>
        ) : null}
        <LabelledChoice
          label={t('general.primary')}
          description={t('general.primaryHelp')}
          disabled={!isPrimaryEditable(options)}
          value={options.primary}
          onChange={(primary) => set('loginOptions.primary', (o) => ({ ...o, primary }))}
          data={[
            { value: 'browserLogin', label: t('general.browserLogin') },
            { value: 'mobileLogin', label: t('general.mobileLogin') },
          ]}
        />
        <SettingSwitch
          label={t('general.browserWarning')}
          description={t('general.browserWarningHelp')}
          checked={draft.value.enableBrowserWarning}
          onChange={(on) => draft.set('enableBrowserWarning', (s) => ({ ...s, enableBrowserWarning: on }))}
        />
      </Stack>
    </Fieldset>
  );
}

/**
 * Issue 37 (docs/decisions/0050): the passkey offer after a fallback sign-in — off, offered ("Not
 * now" remembered a month on that device), or required once a person signed in N times by a fallback.
 */
function PasskeyEnrollmentField({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const enrollment = draft.value.passkeyEnrollment;
  const set = (path: string, change: (e: PasskeyEnrollment) => PasskeyEnrollment) =>
    draft.set(path, (s) => ({ ...s, passkeyEnrollment: change(s.passkeyEnrollment) }));
  const issue = draft.issue('passkeyEnrollment.requireAfter');
  return (
    <Fieldset legend={t('general.enrollmentSection')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
      <Stack gap="md">
        <LabelledChoice
          label={t('general.enrollment')}
          description={t(`general.enrollmentHelp.${enrollment.mode}`)}
          value={enrollment.mode}
          onChange={(mode) => set('passkeyEnrollment.mode', (e) => ({ ...e, mode }))}
          data={PASSKEY_ENROLLMENT_MODES.map((mode) => ({ value: mode, label: t(`general.enrollmentModes.${mode}`) }))}
        />
        <NumberInput
          label={t('general.enrollmentAfter')}
          description={t('general.enrollmentAfterHelp', { max: PASSKEY_ENROLLMENT_AFTER_MAX })}
          min={1}
          max={PASSKEY_ENROLLMENT_AFTER_MAX}
          clampBehavior="none"
          allowDecimal={false}
          allowNegative={false}
          // Kept while another mode is chosen, so switching back finds it as it was.
          disabled={enrollment.mode !== 'require'}
          value={enrollment.requireAfter}
          onChange={(value) => set('passkeyEnrollment.requireAfter', (e) => ({ ...e, requireAfter: typeof value === 'number' ? value : Number.NaN }))}
          error={issue ? tc(validationKey(issue)) : undefined}
          maw={320}
        />
      </Stack>
    </Fieldset>
  );
}
