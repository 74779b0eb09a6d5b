import { Alert, type AlertProps } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import classes from './warning-alert.module.css';

interface WarningAlertProps extends Pick<AlertProps, 'title' | 'role' | 'className'> {
  icon?: ReactNode;
  children: ReactNode;
}

/** A yellow notice whose title keeps AA contrast (Mantine's yellow title text is 2.5:1 on its background). */
export function WarningAlert({ title, icon, children, ...rest }: WarningAlertProps) {
  return (
    <Alert
      {...rest}
      color="yellow"
      variant="light"
      title={title}
      icon={icon ?? <IconAlertTriangle aria-hidden="true" />}
      classNames={{ title: classes.title, icon: classes.icon }}
    >
      {children}
    </Alert>
  );
}
