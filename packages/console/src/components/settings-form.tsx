import { Button, Paper, Stack, Title, type ButtonProps } from '@mantine/core';
import { useContext, useId, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n/react.tsx';
import { CurrentProjectContext } from '../lib/project-context.ts';
import { SubmitButton } from './submit-button.tsx';
import classes from './settings-form.module.css';
import './texts.ts';

interface SettingsFormProps {
  /** The form's accessible name (usually the page title). */
  label: string;
  children: ReactNode;
  /** Every field holds a valid value. */
  valid: boolean;
  /** The save is under way. */
  pending: boolean;
  /** Saving is not possible right now for a reason of the page's own (e.g. a disabled application). */
  locked?: boolean;
  onSave: () => void;
  /** Irreversible actions, below the form under the heading "Danger zone". */
  dangerZone?: ReactNode;
  /**
   * spec §4: while the project is closed, every field is disabled too, not only Save (the settings
   * pages). A form whose fields say on their own when they are editable leaves this off.
   */
  lockFieldsWhenClosed?: boolean;
  /** The button's word when it creates rather than saves ("Create"); "Save" by default. */
  saveLabel?: string;
}

/**
 * spec §2 "Settings pages": the fields and one Save button, disabled while the form is invalid, while
 * saving, or while the project is closed (spec §5); then, optionally, the danger zone.
 */
export function SettingsForm({
  label,
  children,
  valid,
  pending,
  locked = false,
  onSave,
  dangerZone,
  lockFieldsWhenClosed = false,
  saveLabel,
}: SettingsFormProps) {
  const { t } = useTranslation('ui');
  const project = useContext(CurrentProjectContext);
  const closed = project !== null && !project.enabled;
  const canSave = valid && !locked && !closed;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSave && !pending) onSave();
  };

  return (
    <Stack gap="xl">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} component="form" onSubmit={submit} noValidate aria-label={label}>
        <Stack gap="lg">
          <fieldset disabled={closed && lockFieldsWhenClosed} className={classes.fields}>
            <Stack gap="lg">{children}</Stack>
          </fieldset>
          <div>
            <SubmitButton pending={pending} disabled={!canSave}>
              {saveLabel ?? t('actions.save')}
            </SubmitButton>
          </div>
        </Stack>
      </Paper>
      {dangerZone ? <DangerZone>{dangerZone}</DangerZone> : null}
    </Stack>
  );
}

/** Irreversible actions under the heading "Danger zone" (a page whose danger zone is not under a form places it itself). */
export function DangerZone({ children }: { children: ReactNode }) {
  const { t } = useTranslation('ui');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={classes.dangerZone}>
      <Title order={2} id={headingId} className={classes.dangerTitle}>
        {t('settings.dangerZone')}
      </Title>
      <Paper withBorder className={classes.dangerPaper}>
        {children}
      </Paper>
    </section>
  );
}

interface DangerActionProps {
  title: string;
  description: string;
  /** The button (or buttons) that start the action, usually through a ConfirmModal. */
  action: ReactNode;
}

/** One row of the danger zone: what the action does, and its button. */
export function DangerAction({ title, description, action }: DangerActionProps) {
  return (
    <div className={classes.dangerRow}>
      <div className={classes.dangerText}>
        <p className={classes.dangerRowTitle}>{title}</p>
        <p className={classes.dangerRowDescription}>{description}</p>
      </div>
      <div className={classes.dangerAction}>{action}</div>
    </div>
  );
}

type DangerButtonProps = ButtonProps & { onClick: () => void };

/** The button of a destructive danger-zone action: red outline, legible in both schemes. */
export function DangerButton({ className, ...rest }: DangerButtonProps) {
  return <Button variant="outline" {...rest} className={className ? `${classes.dangerButton} ${className}` : classes.dangerButton} />;
}
