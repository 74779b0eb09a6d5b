import { withValueAtPath, type Project, type ProjectSettings, type SettingsPage } from '@latchkey/domain';
import { Button } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import { CenteredLoader } from '../../../components/centered-loader.tsx';
import { ErrorAlert } from '../../../components/error-alert.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { SettingsForm } from '../../../components/settings-form.tsx';
import { api, type Tagged } from '../../../lib/api/index.ts';
import { useTaggedQuery } from '../../../lib/use-api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useCurrentProject } from '../../../lib/project-context.ts';
import { useSaveProject } from '../api/use-save-project.ts';
import { SettingsHistory } from './settings-history.tsx';
import { useSettingsDraft, type SettingsDraft } from './use-settings-draft.ts';

interface ProjectSettingsFrameProps {
  /** Which page: its fields' history (issue 11). */
  page: SettingsPage;
  title: string;
  description: string;
  /** The page's fields, given the draft of the whole document. */
  children: (draft: SettingsDraft, project: Project) => ReactNode;
  /** Below the form (General: closing the project), given the document as read. */
  dangerZone?: (document: Tagged<Project>) => ReactNode;
}

/**
 * A settings page of the project document (General, Branding, User Verification, Mobile
 * Applications): reads GET projects/{project} with its ETag, edits a draft of the whole document,
 * and saves it whole (spec §7 PUT projects/{id}, If-Match) with the one Save button of spec §2; a
 * failure is 'Failed to update settings' with the server's reason (spec §8).
 */
export function ProjectSettingsFrame({ page, title, description, children, dangerZone }: ProjectSettingsFrameProps) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const project = useCurrentProject();
  // spec §7: GET projects/{project}, with its ETag (sent back as If-Match when a settings page saves).
  const document = useTaggedQuery(api.getProject, { params: { project: project.id } });
  const [historyOpen, setHistoryOpen] = useState(false);

  return (
    <PageFrame title={title} description={description} actions={<HistoryButton onClick={() => setHistoryOpen(true)} />}>
      {document.error ? (
        <ErrorAlert title={t('loadFailed')} error={document.error} onRetry={() => void document.refetch()} />
      ) : document.data ? (
        // A new version read (after a save, or after a 412) starts the form again from it.
        <DocumentForm
          key={document.data.etag ?? ''}
          page={page}
          label={title}
          document={document.data}
          dangerZone={dangerZone?.(document.data)}
          historyOpen={historyOpen}
          onHistoryClose={() => setHistoryOpen(false)}
        >
          {children}
        </DocumentForm>
      ) : (
        <CenteredLoader label={tc('common.loading')} />
      )}
    </PageFrame>
  );
}

/** Opens the page's history drawer. */
export function HistoryButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <Button variant="default" leftSection={<IconHistory size={16} aria-hidden="true" />} onClick={onClick}>
      {t('history.open')}
    </Button>
  );
}

interface DocumentFormProps {
  page: SettingsPage;
  historyOpen: boolean;
  onHistoryClose: () => void;
  label: string;
  document: Tagged<Project>;
  children: (draft: SettingsDraft, project: Project) => ReactNode;
  dangerZone?: ReactNode;
}

function DocumentForm({ page, historyOpen, onHistoryClose, label, document, children, dangerZone }: DocumentFormProps) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const draft = useSettingsDraft(document.data);
  const save = useSaveProject();
  const submit = () => {
    draft.touchAll();
    const settings: ProjectSettings | null = draft.valid;
    if (!settings) return;
    save.mutate({ current: document, settings }, { onError: (error) => notifyError(tc('notifications.error.settings_updated'), error) });
  };
  // An earlier value goes into the form, where the Save button saves it as a change of its own.
  const restore = (field: string, value: unknown) => {
    draft.set(field, (s) => withValueAtPath(s, field, value) ?? s);
    onHistoryClose();
    notifySuccess(t('history.restored', { field }));
  };
  return (
    <>
      <SettingsForm lockFieldsWhenClosed label={label} valid={draft.valid !== null} pending={save.isPending} onSave={submit} dangerZone={dangerZone}>
        {children(draft, document.data)}
      </SettingsForm>
      <SettingsHistory
        projectId={document.data.id}
        page={page}
        title={label}
        opened={historyOpen}
        onClose={onHistoryClose}
        onRestore={document.data.enabled ? restore : null}
      />
    </>
  );
}
