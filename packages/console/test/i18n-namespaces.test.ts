import { describe, expect, it } from 'vitest';
import { i18n } from '../src/lib/i18n/index.ts';

describe('catalogue namespaces (bundle budget)', () => {
  it('leaves the texts of lazily loaded parts out of the first download, adding them when their code loads', async () => {
    expect(i18n.hasResourceBundle('en', 'apps')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'ui')).toBe(false);
    expect(JSON.stringify(i18n.getResourceBundle('en', 'translation'))).not.toContain('Add redirect URL');
    // The applications pages import their texts; the shared list and form pieces theirs.
    await import('../src/features/apps/texts.ts');
    await import('../src/components/texts.ts');
    expect(i18n.t('list.add', { ns: 'apps' })).toBe('Add application');
    expect(i18n.t('list.noRecords', { ns: 'ui' })).toBe('No records found');
    expect(i18n.t('copy.copy', { ns: 'ui', label: 'Client ID' })).toBe('Copy Client ID');
  });
});
