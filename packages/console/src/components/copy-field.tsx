import { COPY_CONFIRMATION_MS } from '@latchkey/domain';
import { ActionIcon, Group, Text, TextInput, VisuallyHidden, type TextInputProps } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from '../lib/i18n/react.tsx';
import classes from './copy-field.module.css';
import './texts.ts';

interface CopyFieldProps extends Pick<TextInputProps, 'description' | 'className'> {
  /** The field takes the focus when its modal opens. */
  'data-autofocus'?: boolean;
  label: string;
  value: string;
  /** Long values (secrets) wrap onto the field's width in a monospace font. */
  monospace?: boolean;
}

/**
 * A value the user copies, not edits (spec §2 "Application settings": copyable fields). The copy
 * button's name is "Copy {label}"; a copy that worked says "Copied" for COPY_CONFIRMATION_MS
 * (spec §9); one that failed is only logged (spec §8).
 */
export function CopyField({ label, value, monospace = false, ...rest }: CopyFieldProps) {
  const { t } = useTranslation('ui');
  const [copies, setCopies] = useState(0);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (copies === 0) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copies]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setCopies((n) => n + 1);
    } catch (error) {
      console.error('Copy to clipboard failed', error);
    }
  };

  return (
    <TextInput
      {...rest}
      label={label}
      value={value}
      readOnly
      variant="filled"
      classNames={{ input: monospace ? classes.monospace : undefined }}
      onFocus={(event) => event.currentTarget.select()}
      rightSectionWidth={copied ? 104 : 44}
      rightSectionPointerEvents="all"
      rightSection={
        <Group gap={4} wrap="nowrap" justify="flex-end" className={classes.section}>
          {/* Always present (possibly empty), so assistive technology announces the change. */}
          <Text component="span" size="xs" fw={600} role="status" className={classes.status}>
            {copied ? t('copy.copied') : ''}
          </Text>
          <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} onClick={() => void copy()} size="lg">
            {copied ? <IconCheck size={18} aria-hidden="true" /> : <IconCopy size={18} aria-hidden="true" />}
            {/* The name comes from the content, not aria-label: "Copy Client ID" must not be a label of the field. */}
            <VisuallyHidden>{t('copy.copy', { label })}</VisuallyHidden>
          </ActionIcon>
        </Group>
      }
    />
  );
}
