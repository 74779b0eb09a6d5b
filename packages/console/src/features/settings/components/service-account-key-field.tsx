import { parseServiceAccountKey } from '@latchkey/domain';
import { Button, FileInput, Group, Text } from '@mantine/core';
import { IconFileUpload, IconKey, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n/react.tsx';
import classes from './settings.module.css';
import type { SettingsDraft } from './use-settings-draft.ts';

/** The largest key file read (a real one is about 2.3 KB; the server takes at most 100,000 characters). */
const MAX_KEY_FILE_BYTES = 64 * 1024;

/**
 * spec §2 "Push Notifications with a Firebase project id and service account private key (taken
 * from an uploaded JSON key file)". The file is read and checked in this browser (issue 11): its
 * project id fills the Firebase project ID; the file's text is sent once with the save, stored
 * sealed, and never read back (reads answer an empty key). A stored key shows as set, and can be
 * replaced by another file or removed.
 */
export function ServiceAccountKeyField({ draft }: { draft: SettingsDraft }) {
  const { t } = useTranslation('settings');
  const { t: tc } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [account, setAccount] = useState<string | null>(null);
  const [removed, setRemoved] = useState(false);
  const firebase = draft.value.pushOptions.platforms.find((p) => p.name === 'firebase');
  const stored = firebase !== undefined && firebase.config === '';

  const choose = async (picked: File | null) => {
    setFile(picked);
    setProblem(null);
    setAccount(null);
    if (!picked) return;
    let text: string;
    try {
      if (picked.size > MAX_KEY_FILE_BYTES) throw new Error('too large');
      text = await picked.text();
    } catch {
      setProblem(t('mobile.keyUnreadable'));
      return;
    }
    const key = parseServiceAccountKey(text);
    if (!key) {
      setProblem(tc('validation.service_account_key'));
      return;
    }
    setAccount(key.clientEmail);
    setRemoved(false);
    draft.set('pushOptions.projectId', (s) => ({
      ...s,
      pushOptions: { ...s.pushOptions, projectId: key.projectId, platforms: [{ name: 'firebase', projectId: key.projectId, config: text }] },
    }));
  };

  const remove = () => {
    setFile(null);
    setAccount(null);
    setRemoved(true);
    draft.set('pushOptions.platforms', (s) => ({ ...s, pushOptions: { ...s.pushOptions, platforms: [] } }));
  };

  return (
    <div>
      <FileInput
        label={t('mobile.keyFile')}
        description={t('mobile.keyFileHelp')}
        placeholder={t('mobile.keyFilePlaceholder')}
        accept="application/json,.json"
        leftSection={<IconFileUpload size={16} aria-hidden="true" />}
        clearable
        classNames={{ placeholder: classes.filePlaceholder }}
        value={file}
        onChange={(picked) => void choose(picked)}
        error={problem ?? undefined}
      />
      {firebase || account ? (
        <Group gap="sm" mt="sm" wrap="nowrap" align="center">
          <IconKey size={16} aria-hidden="true" />
          <Text size="sm" role="status">
            {account ? t('mobile.keyNew', { account }) : stored ? t('mobile.keySetUnknown') : null}
          </Text>
          <Button
            variant="subtle"
            color="red"
            className={classes.removeKey}
            size="xs"
            leftSection={<IconTrash size={14} aria-hidden="true" />}
            onClick={remove}
          >
            {t('mobile.removeKey')}
          </Button>
        </Group>
      ) : removed ? (
        <Text size="sm" c="dimmed" mt="sm" role="status">
          {t('mobile.keyRemoved')}
        </Text>
      ) : null}
    </div>
  );
}
