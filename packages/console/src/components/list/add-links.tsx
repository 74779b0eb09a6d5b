import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useCurrentProject } from '../../lib/project-context.ts';

/**
 * spec §2: a project list's add buttons (Add, Add user, Add service account), shown only while the
 * project is enabled (spec §4: a closed project is read-only). The first is the page's main action.
 */
export function AddLinks({ links }: { links: ReadonlyArray<{ to: string; label: string; icon?: ReactNode }> }) {
  const project = useCurrentProject();
  if (!project.enabled) return null;
  return links.map((link, index) => (
    <Button
      key={link.to}
      component={Link}
      to={link.to}
      variant={index === 0 ? 'filled' : 'default'}
      leftSection={link.icon ?? <IconPlus size={18} aria-hidden="true" />}
    >
      {link.label}
    </Button>
  ));
}
