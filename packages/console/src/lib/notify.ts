import { notifications } from '@mantine/notifications';
import { errorMessage } from './error-message.ts';
import { i18n } from './i18n/index.ts';

/**
 * spec §2 "Layout": errors appear as dismissable snackbar notifications; spec §8 names the title of
 * each one, the message of the error's code (lib/error-message.ts) says what went wrong.
 */
export function notifyError(title: string, error?: unknown): void {
  const message = errorMessage(error) ?? undefined;
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
 * spec §8 "Generate keys, disable, enable fail: raw error message shown": the error's own message,
 * with no title of ours — the message of its code in the console's language (issue 35), the
 * server's text only for a code the console does not know.
 */
export function notifyRawError(error: unknown): void {
  const message = errorMessage(error) ?? i18n.t('errors.unexpectedTitle');
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
