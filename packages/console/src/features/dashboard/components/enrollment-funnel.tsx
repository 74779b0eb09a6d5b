import type { AuditResult, EnrollmentFunnel as Funnel } from '@latchkey/domain';
import type { ReactNode } from 'react';
import { Anchor, Group, Paper, Progress, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { formatNumber } from '../../../lib/format-number.ts';
import { useEnrollmentFunnel } from '../api/use-usage.ts';
import { auditLinkOfAction, shareOf } from '../usage-data.ts';
import classes from './dashboard.module.css';

interface Range {
  fromDate: string;
  toDate: string;
}

/**
 * Issue 37 "Enrollment" (docs/decisions/0050): how a project's people come to hold passkeys over the
 * dashboard's range — the offers after fallback sign-ins and what became of them, passkey against
 * fallback sign-ins, the active people holding one, the ceremonies completed. Each count opens its
 * events in the audit log, like the chart's columns and the map's countries.
 */
export function EnrollmentFunnel({ projectId, range }: { projectId: string; range: Range }) {
  const { t } = useTranslation('dashboard');
  const funnel = useEnrollmentFunnel(projectId, range);
  return (
    <Paper withBorder className={classes.panel} component="section" aria-labelledby="enrollment-title">
      <Title order={2} size="h4" id="enrollment-title">
        {t('enrollment.title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('enrollment.intro')}
      </Text>
      {funnel.error ? (
        <ErrorAlert title={t('enrollment.failed')} error={funnel.error} onRetry={() => void funnel.refetch()} />
      ) : funnel.data ? (
        <FunnelFigures funnel={funnel.data} projectId={projectId} range={range} />
      ) : (
        <Skeleton height={180} />
      )}
    </Paper>
  );
}

function FunnelFigures({ funnel, projectId, range }: { funnel: Funnel; projectId: string; range: Range }) {
  const { t } = useTranslation('dashboard');
  const link = (action: string, result?: AuditResult) => auditLinkOfAction(projectId, action, range, result);
  const { offers, signIns, activeUsers, ceremonies } = funnel;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Figure title={t('enrollment.offers')}>
        <Count label={t('enrollment.shown')} value={offers.shown} to={link('passkey.offer.shown')} />
        <Count label={t('enrollment.created')} value={offers.created} of={offers.shown} to={link('device.register', 'created')} />
        <Count label={t('enrollment.declined')} value={offers.declined} of={offers.shown} to={link('passkey.offer.declined')} />
      </Figure>
      <Figure title={t('enrollment.signIns')}>
        <Count
          label={t('enrollment.passkeySignIns')}
          value={signIns.passkey}
          of={signIns.passkey + signIns.fallback}
          to={link('sign_in', 'success')}
        />
        <Count
          label={t('enrollment.fallbackSignIns')}
          value={signIns.fallback}
          of={signIns.passkey + signIns.fallback}
          to={link('sign_in', 'success')}
        />
      </Figure>
      <Figure title={t('enrollment.activeUsers')}>
        <Share label={t('enrollment.withPasskey')} part={activeUsers.withPasskey} whole={activeUsers.total} />
      </Figure>
      <Figure title={t('enrollment.ceremonies')}>
        <Share label={t('enrollment.completed')} part={ceremonies.completed} whole={ceremonies.started} />
      </Figure>
    </SimpleGrid>
  );
}

function Figure({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-label={title}>
      <Text fw={600}>{title}</Text>
      {children}
    </Stack>
  );
}

/** A count of events, its share of `of` where given, opening its events in the audit log. */
function Count({ label, value, of, to }: { label: string; value: number; of?: number; to: string }) {
  const { t } = useTranslation('dashboard');
  const share = of === undefined ? null : shareOf(value, of);
  return (
    <Group justify="space-between" wrap="nowrap" gap="sm">
      <Text size="sm">{label}</Text>
      <Group gap="xs" wrap="nowrap">
        {share === null ? null : (
          <Text size="sm" c="dimmed" className={classes.number}>
            {t('enrollment.percent', { n: share })}
          </Text>
        )}
        <Anchor
          component={Link}
          to={to}
          className={classes.number}
          fw={600}
          aria-label={t('enrollment.openAudit', { what: label, n: formatNumber(value) })}
        >
          {formatNumber(value)}
        </Anchor>
      </Group>
    </Group>
  );
}

/** `part` of `whole` people or ceremonies, as numbers and a bar. */
function Share({ label, part, whole }: { label: string; part: number; whole: number }) {
  const { t } = useTranslation('dashboard');
  const share = shareOf(part, whole);
  const text = t('enrollment.ofTotal', { part: formatNumber(part), whole: formatNumber(whole) });
  return (
    <Stack gap={6}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Text size="sm">{label}</Text>
        <Text size="sm" fw={600} className={classes.number}>
          {text}
          {share === null ? '' : ` · ${t('enrollment.percent', { n: share })}`}
        </Text>
      </Group>
      <Progress value={share ?? 0} size="lg" aria-label={`${label}: ${text}`} />
    </Stack>
  );
}
