import { Button } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from './confirm-modal.tsx';
import { DangerAction, DangerButton } from './settings-form.tsx';

/** One action of a danger zone (issue 21): its row, its button, and the question asked before it runs. */
export interface ConfirmAction {
  key: string;
  title: string;
  description: string;
  button: string;
  /** Not destructive (enable): a primary button and confirm, not red ones. */
  safe?: boolean;
  disabled?: boolean;
  question: {
    title: string;
    /** The question; as a function, given the dialog's confirm (an input's Enter confirms too). */
    message: ReactNode | ((confirm: () => void) => ReactNode);
    confirm: string;
    /** The confirm button waits for something the question asks for (the project's name typed). */
    waiting?: boolean;
  };
  /** The action; the question stays open (its button busy) until it settles. */
  run: () => Promise<unknown>;
  /** The question was closed, answered or not (e.g. clear what was typed in it). */
  onClosed?: () => void;
}

/**
 * A danger zone's rows (spec §2: generate keys, disable, enable, close project): each action behind
 * one confirm dialog.
 */
export function DangerZoneActions({ actions }: { actions: ReadonlyArray<ConfirmAction | null> }) {
  const shown = actions.filter((a): a is ConfirmAction => a !== null);
  // The action as it is now (its question may hold an input), else as it was when asked (an
  // enable row replaces the disable row once it ran, while the dialog is still closing).
  const [snapshot, setSnapshot] = useState<ConfirmAction | null>(null);
  const asked = shown.find((a) => a.key === snapshot?.key) ?? snapshot;
  const [open, setOpen] = useState(false);
  const [running, setRunning] = useState(false);
  const close = () => {
    setOpen(false);
    asked?.onClosed?.();
  };
  const confirm = () => {
    if (!asked || asked.question.waiting || running) return;
    setRunning(true);
    void asked.run().finally(() => {
      setRunning(false);
      close();
    });
  };
  return (
    <>
      {shown.map((action) => {
        const ask = () => {
          setSnapshot(action);
          setOpen(true);
        };
        const button = action.safe ? (
          <Button onClick={ask} disabled={action.disabled}>
            {action.button}
          </Button>
        ) : (
          <DangerButton onClick={ask} disabled={action.disabled}>
            {action.button}
          </DangerButton>
        );
        return <DangerAction key={action.key} title={action.title} description={action.description} action={button} />;
      })}
      <ConfirmModal
        opened={open}
        title={asked?.question.title ?? ''}
        message={typeof asked?.question.message === 'function' ? asked.question.message(confirm) : (asked?.question.message ?? '')}
        confirmLabel={asked?.question.confirm ?? ''}
        danger={!asked?.safe}
        loading={running}
        confirmDisabled={asked?.question.waiting ?? false}
        onConfirm={confirm}
        onCancel={close}
      />
    </>
  );
}
