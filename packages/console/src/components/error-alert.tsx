import { Alert, Button } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useErrorMessage } from '../lib/error-message.ts';
import { useTranslation } from '../lib/i18n/react.tsx';

interface ErrorAlertProps {
  title: string;
  error: unknown;
  onRetry?: () => void;
}

/** A load that failed: what failed, why (the message of its code), and a way to try again. */
export function ErrorAlert({ title, error, onRetry }: ErrorAlertProps) {
  const { t } = useTranslation();
  const message = useErrorMessage()(error);
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
