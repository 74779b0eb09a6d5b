import { Alert, Button } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from '../lib/i18n/react.tsx';

interface ErrorAlertProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** A load that failed: what failed, the server's message, and a way to try again. */
export function ErrorAlert({ title, error, onRetry }: ErrorAlertProps) {
  const { t } = useTranslation();
  const message = error instanceof Error ? error.message : null;
  return (
    <Alert color="red" variant="light" title={title} icon={<IconAlertCircle aria-hidden="true" />} role="alert">
      {message}
      {onRetry ? (
        <Button variant="default" size="xs" mt="sm" display="block" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      ) : null}
    </Alert>
  );
}
