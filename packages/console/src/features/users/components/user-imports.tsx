import { isImportUnderWay, type ImportRefusal, type UserImport } from '@latchkey/domain';
import { Button, FileButton, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Column } from '../../../components/list/data-table.tsx';
import { StaticTable } from '../../../components/list/static-table.tsx';
import { StatusBadge } from '../../../components/status-badge.tsx';
import { UtcTime } from '../../../components/utc-time.tsx';
import { api } from '../../../lib/api/index.ts';
import { resourceKey } from '../../../lib/api/query-key.ts';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { exportForMigration } from '../api/export-for-migration.ts';
import { uploadUsers } from '../api/upload-users.ts';
import { useUserImportReport, useUserImports } from '../api/use-user-imports.ts';
import classes from './users.module.css';

/** Import and export for a migration (issue 37, docs/decisions/0052): the buttons of the Users page. */
export function MigrationActions({ projectId }: { projectId: string }) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const [exporting, setExporting] = useState(false);
  const [uploading, setUploading] = useState(false);
  const start = (file: File | null) => {
    if (!file) return;
    // The page stays while the file is sent (the upload is this tab's); once stored, the job is the server's.
    setUploading(true);
    uploadUsers(projectId, file)
      .then((stored) => {
        if (stored.status === 'failed') notifyError(t('imports.failed'), new Error(stored.failure ?? ''));
        else notifySuccess(t('imports.queuedNotice'));
      })
      .catch((error: unknown) => notifyError(t('imports.failed'), error))
      .finally(() => {
        setUploading(false);
        void queryClient.invalidateQueries({ queryKey: resourceKey(api.listUserImports) });
      });
  };
  return (
    <Group gap="xs">
      <FileButton onChange={start} accept=".jsonl,.ndjson,.csv,application/x-ndjson,text/csv" disabled={uploading}>
        {(props) => (
          <Button {...props} variant="default" loading={uploading} leftSection={<IconUpload size={16} aria-hidden />}>
            {uploading ? t('imports.uploading') : t('imports.import')}
          </Button>
        )}
      </FileButton>
      <Button
        variant="default"
        loading={exporting}
        leftSection={<IconDownload size={16} aria-hidden />}
        onClick={() => {
          setExporting(true);
          exportForMigration(projectId)
            .then((count) => notifySuccess(t('imports.exported', { count })))
            .catch((error: unknown) => notifyError(t('imports.exportFailed'), error))
            .finally(() => setExporting(false));
        }}
      >
        {t('imports.export')}
      </Button>
    </Group>
  );
}

function ImportReport({ projectId, importId }: { projectId: string; importId: string }) {
  const { t } = useTranslation('users');
  const report = useUserImportReport(projectId, importId);
  const columns = useMemo<Column<ImportRefusal>[]>(
    () => [
      { key: 'line', header: t('imports.line'), shrink: true, align: 'right', render: (r) => r.line },
      { key: 'reason', header: t('imports.reason'), render: (r) => r.message },
    ],
    [t],
  );
  return (
    <StaticTable
      label={t('imports.report')}
      columns={columns}
      rows={report.data?.refusals}
      rowKey={(r) => String(r.line)}
      empty={t('imports.noRefusals')}
      loading={report.isPending}
      error={report.error}
      onRetry={() => void report.refetch()}
    />
  );
}

/** An import under way: its status, and how far it got (of the file's lines, once the file is stored). */
function ImportProgress({ item }: { item: UserImport }) {
  const { t } = useTranslation('users');
  const label = t(`imports.${item.status === 'uploading' ? 'uploading' : item.status === 'queued' ? 'queued' : 'running'}`);
  const total = item.total;
  return (
    <Stack gap={2}>
      <StatusBadge tone="neutral">{label}</StatusBadge>
      {total ? (
        <Progress
          value={Math.min(100, Math.round((item.lines / total) * 100))}
          size="xs"
          aria-label={t('imports.progress', { lines: item.lines, total })}
        />
      ) : (
        <Progress value={100} animated size="xs" aria-label={label} />
      )}
    </Stack>
  );
}

/** The latest imports with their progress (read again each second while one is under way), and an import's report once opened. */
export function UserImports({ projectId }: { projectId: string }) {
  const { t } = useTranslation('users');
  const queryClient = useQueryClient();
  const imports = useUserImports(projectId);
  const [opened, setOpened] = useState<string | null>(null);
  const items = useMemo(() => imports.data?.items ?? [], [imports.data]);
  // An import that ends while the page is open added people: the list below is read again.
  const underWay = items.some((i) => isImportUnderWay(i.status));
  const wasUnderWay = useRef(false);
  useEffect(() => {
    if (wasUnderWay.current && !underWay) void queryClient.invalidateQueries({ queryKey: resourceKey(api.listEndUsers) });
    wasUnderWay.current = underWay;
  }, [underWay, queryClient]);
  const columns = useMemo<Column<UserImport>[]>(
    () => [
      { key: 'startedAt', header: t('imports.started'), shrink: true, render: (i) => <UtcTime iso={i.startedAt} /> },
      {
        key: 'status',
        header: t('list.status'),
        shrink: true,
        render: (i) =>
          isImportUnderWay(i.status) ? (
            <ImportProgress item={i} />
          ) : (
            <StatusBadge tone={i.status === 'done' ? 'positive' : 'negative'}>
              {i.status === 'done' ? t('imports.finished') : t('imports.failed')}
            </StatusBadge>
          ),
      },
      { key: 'lines', header: t('imports.lines'), shrink: true, align: 'right', render: (i) => i.lines },
      { key: 'imported', header: t('imports.imported'), shrink: true, align: 'right', render: (i) => i.imported },
      { key: 'unchanged', header: t('imports.unchanged'), shrink: true, align: 'right', hiddenOnPhone: true, render: (i) => i.unchanged },
      { key: 'refused', header: t('imports.refused'), shrink: true, align: 'right', render: (i) => i.refused },
      {
        key: 'report',
        header: t('imports.report'),
        hiddenHeader: true,
        shrink: true,
        align: 'right',
        render: (i) =>
          i.refused > 0 || i.failure ? (
            <Button
              variant="subtle"
              size="compact-sm"
              className={classes.report}
              onClick={() => setOpened(opened === i.id ? null : i.id)}
              aria-expanded={opened === i.id}
            >
              {t('imports.showReport')}
            </Button>
          ) : null,
      },
    ],
    [t, opened],
  );
  if (items.length === 0) return null;
  const failure = items.find((i) => i.id === opened)?.failure;
  return (
    <Stack gap="xs" mb="md">
      <Title order={2} size="h4">
        {t('imports.title')}
      </Title>
      <StaticTable label={t('imports.title')} columns={columns} rows={items.slice(0, 5)} rowKey={(i) => i.id} empty="" />
      {opened ? (
        <>
          {failure ? <Text c="red.8">{failure}</Text> : null}
          <ImportReport projectId={projectId} importId={opened} />
        </>
      ) : null}
    </Stack>
  );
}
