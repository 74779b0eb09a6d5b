import { validationMessages } from '@latchkey/domain';
import { describe, expect, it } from 'vitest';
import { i18n } from './index.ts';

const text = (key: string): unknown => i18n.getResource('en', 'translation', key);

describe('English catalogue', () => {
  it.each([
    ['notifications.error.project_created', 'Failed to create new project'],
    ['notifications.error.account_created', 'Failed to create new account'],
    ['notifications.error.account_updated', 'Failed to update account'],
    ['notifications.error.app_created', 'Failed to create new application'],
    ['notifications.error.app_updated', 'Failed to update application'],
    ['notifications.error.issuer_updated', 'Failed to update issuer'],
    ['notifications.error.settings_updated', 'Failed to update settings'],
    ['notifications.error.revocation_failed', 'Failed to revoke device'],
  ])('spec §8: %s is "%s"', (key, expected) => {
    expect(text(key)).toBe(expected);
  });

  it('holds every validation message of the domain under its key, word for word', () => {
    for (const [key, expected] of Object.entries(validationMessages)) {
      expect(text(key)).toBe(expected);
    }
  });

  it('is ready before the first render (no asynchronous loading)', () => {
    expect(i18n.isInitialized).toBe(true);
    expect(i18n.language).toBe('en');
  });
});
