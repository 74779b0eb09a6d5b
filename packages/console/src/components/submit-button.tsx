import { SUBMIT_LINGER_MS } from '@latchkey/domain';
import { Button, type ButtonProps } from '@mantine/core';
import { useEffect, useState, type ComponentPropsWithoutRef } from 'react';

type SubmitButtonProps = ButtonProps &
  Omit<ComponentPropsWithoutRef<'button'>, keyof ButtonProps | 'type'> & {
    /** The submission is under way. */
    pending: boolean;
  };

/**
 * spec §2 "Submit buttons": shows a loading state while the submission runs and stays in it for
 * SUBMIT_LINGER_MS after it ends, so a fast answer still reads as "something happened".
 */
export function SubmitButton({ pending, disabled, children, ...rest }: SubmitButtonProps) {
  const busy = useLingering(pending, SUBMIT_LINGER_MS);
  return (
    <Button type="submit" {...rest} loading={busy} disabled={disabled} aria-busy={busy}>
      {children}
    </Button>
  );
}

/** True while `active`, and for `ms` after each time it turns false. */
export function useLingering(active: boolean, ms: number): boolean {
  const [previous, setPrevious] = useState(active);
  // Each end of an active period starts a new linger round; the timer belongs to the round.
  const [round, setRound] = useState(0);
  const [lingering, setLingering] = useState(false);

  if (previous !== active) {
    setPrevious(active);
    if (!active) {
      setRound((r) => r + 1);
      setLingering(true);
    }
  }

  useEffect(() => {
    if (round === 0) return undefined;
    const timer = setTimeout(() => setLingering(false), ms);
    return () => clearTimeout(timer);
  }, [round, ms]);

  return active || lingering;
}
