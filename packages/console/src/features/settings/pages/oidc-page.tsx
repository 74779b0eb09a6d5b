import {
  CODE_CHALLENGE_METHODS,
  issuerSchema,
  REFRESH_LIFETIME_RANGE,
  SIGNING_ALGS,
  TOKEN_ENDPOINT_AUTH_METHODS,
  TOKEN_LIFETIME_RANGE,
  withValueAtPath,
  type Issuer,
  type VerificationOptions,
} from '@latchkey/domain';
import { Checkbox, Fieldset, Group, NumberInput, Select, SimpleGrid } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { api, type Tagged } from '../../../lib/api/index.ts';
import { useTaggedQuery } from '../../../lib/use-api.ts';
import { validationKey } from '../../../lib/i18n/validation.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { useSaveIssuer } from '../api/use-save-issuer.ts';
import { IssuerAddress } from '../components/issuer-address.tsx';
import { HistoryButton } from '../components/project-settings-frame.tsx';
import { SettingsHistory } from '../components/settings-history.tsx';
import { SettingSwitch } from '../../../components/setting-switch.tsx';
import { SigningKeys } from '../components/signing-keys.tsx';
import classes from '../components/settings.module.css';

type Lifetime = 'access_token_ttl' | 'id_token_ttl' | 'refresh_token_idle_ttl' | 'refresh_token_absolute_ttl';

/** Each lifetime as the form shows it: in minutes or in days (the API's are seconds). */
const LIFETIMES: Array<{ field: Lifetime; unit: 'minutes' | 'days'; range: { min: number; max: number } }> = [
  { field: 'access_token_ttl', unit: 'minutes', range: TOKEN_LIFETIME_RANGE },
  { field: 'id_token_ttl', unit: 'minutes', range: TOKEN_LIFETIME_RANGE },
  { field: 'refresh_token_idle_ttl', unit: 'days', range: REFRESH_LIFETIME_RANGE },
  { field: 'refresh_token_absolute_ttl', unit: 'days', range: REFRESH_LIFETIME_RANGE },
];
const SECONDS = { minutes: 60, days: 86400 } as const;

/**
 * spec §2 "Settings pages" OpenID Connect (/project/{project}/oidc): the issuer's address to copy (where
 * it is and its move to the project's own host: docs/decisions/0047),
 * its PKCE and token endpoint methods (at least one each, spec §5), PKCE-only exchange and the
 * signing algorithm; GET/PUT projects/{project}/issuer; a failure is 'Failed to update issuer' (§8).
 */
export default function OidcPage() {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  const issuer = useTaggedQuery(api.getIssuer, { params: { project: project.id } });
  const [historyOpen, setHistoryOpen] = useState(false);
  return (
    <PageFrame title={tc('pages.projectOidc')} description={t('oidc.intro')} actions={<HistoryButton onClick={() => setHistoryOpen(true)} />}>
      {issuer.error ? (
        <ErrorAlert title={t('loadFailed')} error={issuer.error} onRetry={() => void issuer.refetch()} />
      ) : issuer.data ? (
        <IssuerForm
          key={issuer.data.etag ?? ''}
          projectId={project.id}
          current={issuer.data}
          closed={!project.enabled}
          fallback={project.verificationOptions.method}
          historyOpen={historyOpen}
          onHistoryClose={() => setHistoryOpen(false)}
        />
      ) : (
        <CenteredLoader label={tc('common.loading')} />
      )}
    </PageFrame>
  );
}

interface IssuerFormProps {
  projectId: string;
  current: Tagged<Issuer>;
  closed: boolean;
  fallback: VerificationOptions['method'];
  historyOpen: boolean;
  onHistoryClose: () => void;
}

function IssuerForm({ projectId, current, closed, fallback, historyOpen, onHistoryClose }: IssuerFormProps) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const [value, setValue] = useState<Issuer>(current.data);
  const [touched, setTouched] = useState(false);
  const save = useSaveIssuer(projectId);
  const checked = useMemo(() => issuerSchema.safeParse(value), [value]);
  const issueOf = (field: keyof Issuer) => {
    if (!touched || checked.success) return undefined;
    const issue = checked.error.issues.find((i) => i.path[0] === field);
    return issue ? tc(validationKey(issue.message)) : undefined;
  };
  const change = (next: Partial<Issuer>) => {
    setValue((v) => ({ ...v, ...next }));
    setTouched(true);
  };
  const submit = () => {
    setTouched(true);
    if (!checked.success) return;
    save.mutate({ current, body: checked.data }, { onError: (error) => notifyError(tc('notifications.error.issuer_updated'), error) });
  };

  // Issue 11: an earlier value from the history goes into the form, to be saved as a change of its own.
  const restore = (field: string, earlier: unknown) => {
    setValue((v) => withValueAtPath(v, field, earlier) ?? v);
    setTouched(true);
    onHistoryClose();
    notifySuccess(t('history.restored', { field }));
  };

  return (
    <>
      <IssuerAddress projectId={projectId} issuer={current.data} fallback={fallback} closed={closed} />
      <SettingsForm lockFieldsWhenClosed label={tc('pages.projectOidc')} valid={checked.success} pending={save.isPending} onSave={submit}>
        <Checkbox.Group
          label={t('oidc.pkce')}
          description={t('oidc.pkceHelp')}
          value={value.code_challenge_methods}
          onChange={(methods) => change({ code_challenge_methods: CODE_CHALLENGE_METHODS.filter((m) => methods.includes(m)) })}
          error={issueOf('code_challenge_methods')}
        >
          <Group gap="lg" mt="xs">
            {CODE_CHALLENGE_METHODS.map((m) => (
              <Checkbox key={m} value={m} label={t(`oidc.methods.${m}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Checkbox.Group
          label={t('oidc.auth')}
          description={t('oidc.authHelp')}
          value={value.token_endpoint_auth_methods}
          onChange={(methods) => change({ token_endpoint_auth_methods: TOKEN_ENDPOINT_AUTH_METHODS.filter((m) => methods.includes(m)) })}
          error={issueOf('token_endpoint_auth_methods')}
        >
          <Group gap="lg" mt="xs">
            {TOKEN_ENDPOINT_AUTH_METHODS.map((m) => (
              <Checkbox key={m} value={m} label={m} ff="monospace" />
            ))}
          </Group>
        </Checkbox.Group>
        <SettingSwitch
          label={t('oidc.pkceOnly')}
          description={t('oidc.pkceOnlyHelp')}
          checked={value.allow_pkce_only_token_exchange}
          onChange={(checked) => change({ allow_pkce_only_token_exchange: checked })}
        />
        <SettingSwitch
          label={t('oidc.pkceConfidential')}
          description={t('oidc.pkceConfidentialHelp')}
          checked={value.require_pkce_for_confidential_clients}
          onChange={(checked) => change({ require_pkce_for_confidential_clients: checked })}
        />
        <Select
          label={t('oidc.alg')}
          maw={320}
          data={[...SIGNING_ALGS]}
          value={value.id_token_signing_alg}
          allowDeselect={false}
          onChange={(alg) => {
            const found = SIGNING_ALGS.find((a) => a === alg);
            if (found) change({ id_token_signing_alg: found });
          }}
          error={issueOf('id_token_signing_alg')}
        />
        <Fieldset legend={t('oidc.lifetimes')} variant="unstyled" className={classes.section} classNames={{ legend: classes.sectionTitle }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} className={classes.alignInputs}>
            {LIFETIMES.map(({ field, unit, range }) => (
              <NumberInput
                key={field}
                label={t(`oidc.lifetime.${field}`)}
                description={t(`oidc.lifetime.${field}_help`)}
                suffix={` ${t(`oidc.units.${unit}`)}`}
                min={range.min / SECONDS[unit]}
                max={range.max / SECONDS[unit]}
                clampBehavior="none"
                allowNegative={false}
                decimalScale={unit === 'days' ? 2 : 1}
                value={value[field] / SECONDS[unit]}
                onChange={(typed) => change({ [field]: typeof typed === 'number' ? Math.round(typed * SECONDS[unit]) : Number.NaN })}
                error={issueOf(field)}
              />
            ))}
          </SimpleGrid>
        </Fieldset>
      </SettingsForm>
      <SigningKeys projectId={projectId} closed={closed} />
      <SettingsHistory
        projectId={projectId}
        page="oidc"
        title={tc('pages.projectOidc')}
        opened={historyOpen}
        onClose={onHistoryClose}
        onRestore={closed ? null : restore}
      />
    </>
  );
}
