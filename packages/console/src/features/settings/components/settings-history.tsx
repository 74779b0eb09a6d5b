import { SECRET_CHANGED, type SettingsChange, type SettingsPage } from '@latchkey/domain';
import { Badge, Button, Drawer, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { formatUtcDateTime } from '../../../lib/format-date.ts';
import { useSettingsHistory } from '../api/use-settings-history.ts';
import classes from './settings.module.css';
import type { settingsTexts } from '../texts.en.ts';

interface SettingsHistoryProps {
  projectId: string;
  page: SettingsPage;
  title: string;
  opened: boolean;
  onClose: () => void;
  /** Puts a field's earlier value back into the form (saved as a normal change); null: not on this page now. */
  onRestore: ((field: string, value: unknown) => void) | null;
}

/**
 * Issue 11 "Settings history": the page's changes, newest first — who, when, each field's value
 * before and after (a secret only as changed) — from the project's audit log. Each earlier value
 * can be restored into the form, which the Save button then saves as a change of its own.
 */
export function SettingsHistory({ projectId, page, title, opened, onClose, onRestore }: SettingsHistoryProps) {
  const { t } = useTranslation('settings');
  const history = useSettingsHistory(projectId, page, opened);
  const changes = history.data?.pages.flatMap((p) => p.list) ?? [];
  return (
    <Drawer
      opened={opened}
      onClose={onClose}
      position="right"
      size="lg"
      title={t('history.title', { page: title })}
      closeButtonProps={{ 'aria-label': t('history.close') }}
    >
      {history.error ? (
        <ErrorAlert title={t('history.failed')} error={history.error} onRetry={() => void history.refetch()} />
      ) : !history.data ? (
        <Stack gap="sm">
          <Skeleton height={80} />
          <Skeleton height={80} />
        </Stack>
      ) : changes.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('history.none')}
        </Text>
      ) : (
        <Stack gap="md" component="ol" className={classes.historyList}>
          {changes.map((change) => (
            <ChangeEntry key={change.id} change={change} onRestore={onRestore} />
          ))}
          {history.hasNextPage ? (
            <div>
              <Button variant="default" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
                {t('history.older')}
              </Button>
            </div>
          ) : null}
        </Stack>
      )}
    </Drawer>
  );
}

function ChangeEntry({ change, onRestore }: { change: SettingsChange; onRestore: SettingsHistoryProps['onRestore'] }) {
  const { t } = useTranslation('settings');
  const fields = Object.entries(change.changes);
  return (
    <Paper withBorder p="sm" component="li">
      <Group justify="space-between" gap="xs" mb="xs">
        <Text size="sm" fw={600}>
          {formatUtcDateTime(change.createdAt)}
        </Text>
        <Badge variant="light" color="gray">
          {t(`history.actions.${actionKey(change.action)}`)}
        </Badge>
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {t('history.by', { account: change.account ?? t('history.unknownAccount') })}
      </Text>
      <Table withTableBorder className={classes.historyTable} aria-label={t('history.changesOf', { date: formatUtcDateTime(change.createdAt) })}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('history.field')}</Table.Th>
            <Table.Th scope="col">{t('history.before')}</Table.Th>
            <Table.Th scope="col">{t('history.after')}</Table.Th>
            {onRestore ? (
              <Table.Th scope="col">
                <span className={classes.visuallyHidden}>{t('history.restore')}</span>
              </Table.Th>
            ) : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map(([field, value]) => {
            const secret = value === SECRET_CHANGED;
            return (
              <Table.Tr key={field}>
                <Table.Th scope="row" className={classes.historyField}>
                  {field}
                </Table.Th>
                <Table.Td className={classes.historyValue} colSpan={secret ? 2 : 1}>
                  {secret ? t('history.secret') : shown(value.before, t('history.empty'))}
                </Table.Td>
                {secret ? null : <Table.Td className={classes.historyValue}>{shown(value.after, t('history.empty'))}</Table.Td>}
                {onRestore ? (
                  <Table.Td>
                    {secret ||
                    change.action === 'project.create' ||
                    change.action === 'issuer.keys.rotate' ||
                    change.action === 'issuer.move' ||
                    field === 'enabled' ? null : (
                      <Button
                        variant="default"
                        size="compact-xs"
                        leftSection={<IconArrowBackUp size={14} aria-hidden="true" />}
                        aria-label={t('history.restoreField', { field })}
                        onClick={() => onRestore(field, value.before)}
                      >
                        {t('history.restore')}
                      </Button>
                    )}
                  </Table.Td>
                ) : null}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

/** A recorded value as people read it: text as it is, lists one per line, nothing as "(empty)". */
function shown(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  if (Array.isArray(value)) return value.length === 0 ? empty : value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('\n');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A change's action as its text's key: the catalogue reads dots as nesting, so `issuer.keys.rotate` is `issuer_keys_rotate`. */
function actionKey(action: string): keyof typeof settingsTexts.history.actions {
  return action.replaceAll('.', '_') as keyof typeof settingsTexts.history.actions;
}
