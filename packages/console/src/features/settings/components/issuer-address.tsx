import { guards, holdsOwnHost, type Issuer, type VerificationOptions } from '@latchkey/domain';
import { Button, Fieldset, List, Paper, Stack, Text } from '@mantine/core';
import { IconArrowsMove } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal.tsx';
import { CopyField } from '../../../components/copy-field.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { api } from '../../../lib/api/index.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useApiMutation } from '../../../lib/use-api.ts';
import { usePermission } from '../../../lib/use-permission.ts';
import classes from './settings.module.css';

interface IssuerAddressProps {
  projectId: string;
  issuer: Issuer;
  /** How the project's users verify when no passkey is offered (its verification method). */
  fallback: VerificationOptions['method'];
  closed: boolean;
}

/**
 * docs/decisions/0047: the issuer's address to copy, where it is (the server's shared path, the
 * project's own host or its custom domain) with the domain its passkeys are made for, and — where the
 * server offers it (`moves`) — "Move to its own host" behind a dialog saying what it means for the
 * project's apps and its users' passkeys. The move's guard is the issuer settings' (projectAdmin).
 */
export function IssuerAddress({ projectId, issuer, fallback, closed }: IssuerAddressProps) {
  const { t } = useTranslation('settings');
  const allowed = usePermission(guards.projectAdmin);
  // The project's version, its issuer, its apps' keys (their issuer) and the history all change.
  const move = useApiMutation(api.moveIssuer, { invalidates: [api.getProject] });
  const [asking, setAsking] = useState(false);
  const placement = issuer.placement ?? 'sharedPath';
  const domain = issuer.passkey_domain ?? '';
  const ownHost = issuer.own_host ?? '';
  const offered = allowed && (issuer.moves ?? []).includes('ownHost') && ownHost !== '';
  // docs/decisions/0049: at a custom domain, a project that has its own host (no move offered) gets
  // passkeys of the own host where the browser has Related Origin Requests, of the domain elsewhere.
  const whereText = placement === 'customDomain' && holdsOwnHost(issuer) ? 'customDomainOwnHost' : placement;
  const confirm = () =>
    move.mutate(
      { params: { project: projectId }, body: { to: 'ownHost' } },
      {
        onSuccess: (moved) => {
          setAsking(false);
          notifySuccess(t('oidc.move.done', { address: moved.address }));
        },
        onError: (error) => {
          setAsking(false);
          notifyError(t('oidc.move.failed'), error);
        },
      },
    );
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} mb="lg" component="section" aria-label={t('oidc.where.title')}>
      <Fieldset legend={t('oidc.where.title')} variant="unstyled" classNames={{ legend: classes.sectionTitle }}>
        <Stack gap="sm">
          <CopyField label={t('oidc.address')} value={issuer.address} monospace />
          <div className={classes.placement}>
            <StatusBadge tone={placement === 'sharedPath' ? 'neutral' : 'positive'}>{t(`oidc.where.badge.${placement}`)}</StatusBadge>
            <Text size="sm" className={classes.grow}>
              {t(`oidc.where.${whereText}`, { domain })}
            </Text>
          </div>
          {offered ? (
            <div className={classes.moveOffer}>
              <Text size="sm" c="dimmed" className={classes.grow}>
                {t('oidc.move.offer', { address: ownHost })}
              </Text>
              <Button
                variant="light"
                leftSection={<IconArrowsMove size={16} aria-hidden="true" />}
                disabled={closed}
                onClick={() => setAsking(true)}
                className={classes.moveButton}
              >
                {t('oidc.move.action')}
              </Button>
            </div>
          ) : null}
        </Stack>
      </Fieldset>
      <ConfirmModal
        opened={asking}
        title={t('oidc.move.title')}
        message={
          <List size="sm" spacing="xs" className={classes.moveDialog}>
            {placement === 'customDomain' ? (
              <List.Item>{t('oidc.move.addressStays', { from: issuer.address, domain: hostOf(ownHost) })}</List.Item>
            ) : (
              <>
                <List.Item>{t('oidc.move.newIssuer', { from: issuer.address, to: ownHost })}</List.Item>
                <List.Item>{t('oidc.move.apps')}</List.Item>
              </>
            )}
            <List.Item>{t('oidc.move.passkeys', { domain, fallback: t(`fallback.${fallback}`) })}</List.Item>
            <List.Item>{t('oidc.move.final')}</List.Item>
          </List>
        }
        confirmLabel={t('oidc.move.confirm')}
        loading={move.isPending}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      />
    </Paper>
  );
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return origin;
  }
}
