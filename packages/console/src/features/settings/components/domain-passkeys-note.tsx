import { holdsOwnHost, type VerificationOptions } from '@latchkey/domain';
import { Text } from '@mantine/core';
import { WarningAlert } from '../../../components/warning-alert.tsx';
import { api } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { useApiQuery } from '../../../lib/use-api.ts';

interface DomainPasskeysNoteProps {
  projectId: string;
  /** The custom domain as saved, and as the form holds it now. */
  saved: string;
  typed: string;
  fallback: VerificationOptions['method'];
}

/**
 * docs/decisions/0047, under the custom-domain setting: what a new domain does to the users'
 * passkeys. With its own host the project's passkeys stay that host's, which lists the custom domain
 * (Related Origin Requests; browsers without them get passkeys of the custom domain's own, which work
 * while the project keeps it: docs/decisions/0049); without one, passkeys belong to the issuer's domain and stop working at a
 * new one — said as a warning once the domain is being changed, with the move that avoids it when the
 * server offers one.
 */
export function DomainPasskeysNote({ projectId, saved, typed, fallback }: DomainPasskeysNoteProps) {
  const { t } = useTranslation('settings');
  const issuer = useApiQuery(api.getIssuer, { params: { project: projectId } });
  if (!issuer.data) return null;
  const { moves = [], passkey_domain: domain = '' } = issuer.data;
  const movable = moves.includes('ownHost');
  const values = { domain, fallback: t(`fallback.${fallback}`) };
  if (holdsOwnHost(issuer.data))
    return (
      <Text size="sm" c="dimmed">
        {t('general.domainPasskeys.ownHost', values)}
      </Text>
    );
  const text = `${t('general.domainPasskeys.issuerDomain', values)}${movable ? ` ${t('general.domainPasskeys.moveFirst')}` : ''}`;
  return typed.trim() !== saved.trim() ? (
    <WarningAlert role="status">{text}</WarningAlert>
  ) : (
    <Text size="sm" c="dimmed">
      {text}
    </Text>
  );
}
