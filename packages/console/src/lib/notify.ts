import { notifications } from '@mantine/notifications';
import { isApiError } from './api/index.ts';
import { i18n } from './i18n/index.ts';

/**
 * spec §2 "Layout": errors appear as dismissable snackbar notifications; spec §8 names the title of
 * each one, the server's message says what went wrong.
 */
export function notifyError(title: string, error?: unknown): void {
  const message = isApiError(error) || error instanceof Error ? error.message : undefined;
  notifications.show({
    color: 'red',
    title: message ? title : undefined,
    message: message ?? title,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': i18n.t('common.dismiss') },
    autoClose: 8000,
  });
}

/**
 * spec §8 "Generate keys, disable, enable fail: raw error message shown": the server's own message
 * as it came, with no title of ours.
 */
export function notifyRawError(error: unknown): void {
  const message = error instanceof Error && error.message ? error.message : i18n.t('errors.unexpectedTitle');
  notifications.show({
    color: 'red',
    message,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': i18n.t('common.dismiss') },
    autoClose: 8000,
  });
}

/** A job done that the person waited for (an export, a bulk revocation): said once, then gone. */
export function notifySuccess(message: string): void {
  notifications.show({
    color: 'teal',
    message,
    withCloseButton: true,
    closeButtonProps: { 'aria-label': i18n.t('common.dismiss') },
    autoClose: 6000,
  });
}
