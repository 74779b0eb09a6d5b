import type { ReactNode } from 'react';
import classes from './status-badge.module.css';

interface StatusBadgeProps {
  /** positive: enabled, active; neutral: disabled, inactive; negative: revoked, failed. */
  tone: 'positive' | 'neutral' | 'negative';
  size?: 'sm' | 'md';
  children: ReactNode;
}

/** A state shown as a word in a pill (Enabled, Disabled, Active, Revoked), with AA contrast in both schemes. */
export function StatusBadge({ tone, size = 'sm', children }: StatusBadgeProps) {
  return (
    <span className={classes.badge} data-tone={tone} data-size={size}>
      <span className={classes.dot} aria-hidden="true" />
      {children}
    </span>
  );
}
