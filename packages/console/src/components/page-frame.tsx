import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './page-frame.module.css';

interface PageFrameProps {
  /** The page's one h1. */
  title: string;
  description?: ReactNode;
  /** Buttons beside the title (add, save…). */
  actions?: ReactNode;
  children?: ReactNode;
}

/** The header every page starts with, and the column its content sits in. */
export function PageFrame({ title, description, actions, children }: PageFrameProps) {
  return (
    <Stack gap="lg" className={classes.frame}>
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Stack gap={4} className={classes.heading}>
          <Title order={1} className={classes.title}>
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" size="sm">
              {description}
            </Text>
          ) : null}
        </Stack>
        {actions ? (
          <Group gap="sm" className={classes.actions}>
            {actions}
          </Group>
        ) : null}
      </Group>
      {children}
    </Stack>
  );
}
