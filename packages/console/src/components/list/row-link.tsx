import { Button } from '@mantine/core';
import { IconSettings } from '@tabler/icons-react';
import { Link } from 'react-router';
import classes from './list.module.css';

/**
 * A row's link to the row's own page (an application's Settings, an account's Manage). The visible
 * word starts its accessible name, which says whose page it is; on a phone only the icon shows.
 */
export function RowLink({ to, label, name }: { to: string; label: string; name: string }) {
  return (
    <Button
      component={Link}
      to={to}
      aria-label={name}
      variant="subtle"
      size="compact-sm"
      leftSection={<IconSettings size={16} aria-hidden="true" />}
      classNames={{ section: classes.rowLinkIcon }}
    >
      <span className={classes.rowLinkLabel}>{label}</span>
    </Button>
  );
}
