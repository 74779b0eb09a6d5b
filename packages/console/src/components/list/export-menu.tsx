import type { ExportFormat } from '@latchkey/domain';
import { Button, Group, Menu, Progress, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconDownload } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n/react.tsx';
import type { DownloadedFile } from '../../lib/api/index.ts';
import type { ExportRun } from '../../lib/list-state/use-ranged-list.ts';
import { browser } from '../../lib/browser.ts';
import { formatNumber } from '../../lib/format-number.ts';
import { currentLanguage } from '../../lib/i18n/index.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import '../texts.ts';
import classes from './list.module.css';

interface ExportMenuProps {
  /** What the list counted for the same filter: the rows to expect (exact, or "10,000+"). */
  expected: { total: number; totalCapped?: boolean } | undefined;
  /** Downloads the list's current filter in `format` (lib/api `download`). */
  load: (format: ExportFormat, run: ExportRun) => Promise<DownloadedFile>;
}

type Running = { format: ExportFormat; rows: number; controller: AbortController };

/** A CSV's first line is its header; every other line of either format is one row. */
function rowsOf(format: ExportFormat, lines: number): number {
  return format === 'csv' ? Math.max(0, lines - 1) : lines;
}

/**
 * Export of a list's current filter (issue 9, docs/decisions/0019 "Export"): CSV or JSON Lines,
 * streamed from the server, with the rows received so far against the rows the list counted, and a
 * way to stop. The file goes to the browser's downloads when it is whole; a broken transfer is an
 * error, never a short file.
 */
export function ExportMenu({ expected, load }: ExportMenuProps) {
  const { t, i18n } = useTranslation('ui');
  const [running, setRunning] = useState<Running | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  // Leaving the page stops the transfer.
  const controller = running?.controller;
  useEffect(() => () => controller?.abort(), [controller]);

  const number = (n: number) => formatNumber(n, currentLanguage(i18n));
  const formatName = (format: ExportFormat) => t(`export.formats.${format}`);

  const start = (format: ExportFormat) => {
    const job: Running = { format, rows: 0, controller: new AbortController() };
    setRunning(job);
    load(format, {
      signal: job.controller.signal,
      onProgress: ({ lines }) => {
        if (mounted.current) setRunning((now) => (now?.controller === job.controller ? { ...now, rows: rowsOf(format, lines) } : now));
      },
    })
      .then((file) => {
        browser.save(file.blob, file.filename);
        notifySuccess(t('export.done', { count: rowsOf(format, file.lines), rows: number(rowsOf(format, file.lines)), file: file.filename }));
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        notifyError(t('export.failed'), error);
      })
      .finally(() => {
        if (mounted.current) setRunning((now) => (now?.controller === job.controller ? null : now));
      });
  };

  if (running) {
    const exact = expected && !expected.totalCapped && expected.total > 0 ? expected.total : null;
    const of = exact ? number(exact) : expected?.totalCapped ? `${number(expected.total)}+` : null;
    const status = of
      ? t('export.progressOf', { count: exact ?? expected?.total ?? 0, format: formatName(running.format), rows: number(running.rows), total: of })
      : t('export.progress', { count: running.rows, format: formatName(running.format), rows: number(running.rows) });
    return (
      <Group gap="sm" wrap="nowrap" className={classes.exportProgress}>
        <Stack gap={4} className={classes.exportStatus}>
          <Text size="xs" role="status" aria-live="polite">
            {status}
          </Text>
          <Progress
            size="sm"
            value={exact ? Math.min(100, (running.rows / exact) * 100) : 100}
            animated={!exact}
            striped={!exact}
            aria-label={status}
          />
        </Stack>
        <Button variant="default" size="xs" onClick={() => running.controller.abort()}>
          {t('export.cancel')}
        </Button>
      </Group>
    );
  }

  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden="true" />}
          rightSection={<IconChevronDown size={14} aria-hidden="true" />}
        >
          {t('export.label')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => start('csv')}>{t('export.asCsv')}</Menu.Item>
        <Menu.Item onClick={() => start('jsonl')}>{t('export.asJsonl')}</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
