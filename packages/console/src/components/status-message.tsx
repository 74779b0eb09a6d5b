import { Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import classes from './status-message.module.css';

interface StatusMessageProps {
  /** A short code shown large above the heading (403, 404). */
  code?: string;
  heading: string;
  children?: ReactNode;
  /** A link out of the dead end. */
  action?: { label: string; to: string };
}

/** A page that has only something to say: forbidden, not found, declined sign-in. */
export function StatusMessage({ code, heading, children, action }: StatusMessageProps) {
  return (
    <Stack align="center" gap="md" className={classes.root}>
      {code ? (
        <Text className={classes.code} aria-hidden="true">
          {code}
        </Text>
      ) : null}
      <Title order={1} ta="center" className={classes.heading}>
        {heading}
      </Title>
      {children}
      {action ? (
        <Button component={Link} to={action.to} variant="light" mt="sm">
          {action.label}
        </Button>
      ) : null}
    </Stack>
  );
}
