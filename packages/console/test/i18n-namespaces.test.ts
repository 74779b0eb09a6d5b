import { describe, expect, it } from 'vitest';
import { featuresWithTexts, loadFeatureTexts } from '../src/app/feature-texts.ts';
import { changeLanguage, i18n } from '../src/lib/i18n/index.ts';

describe('catalogue namespaces (bundle budget)', () => {
  it('leaves the texts of lazily loaded parts out of the first download, adding them when their code loads', async () => {
    expect(i18n.hasResourceBundle('en', 'apps')).toBe(false);
    expect(i18n.hasResourceBundle('en', 'ui')).toBe(false);
    expect(JSON.stringify(i18n.getResourceBundle('en', 'translation'))).not.toContain('Add redirect URL');
    // A feature's texts are found from its folder (the router loads them with its pages); the shared
    // list and form pieces import theirs.
    await loadFeatureTexts('apps');
    await import('../src/components/texts.ts');
    expect(i18n.t('list.add', { ns: 'apps' })).toBe('Add application');
    expect(i18n.t('list.noRecords', { ns: 'ui' })).toBe('No records found');
    expect(i18n.t('copy.copy', { ns: 'ui', label: 'Client ID' })).toBe('Copy Client ID');
  });

  it('names each feature’s namespace after its folder, its French and Romanian fetched when chosen', async () => {
    expect(featuresWithTexts).toEqual(
      expect.arrayContaining(['accounts', 'apps', 'audit', 'dashboard', 'devices', 'search', 'settings', 'users', 'webhooks']),
    );
    await loadFeatureTexts('webhooks');
    expect(i18n.hasResourceBundle('fr', 'webhooks')).toBe(false);
    // A feature without texts of its own (its pages use the main catalogue) adds nothing.
    await loadFeatureTexts('projects');
    expect(i18n.hasResourceBundle('en', 'projects')).toBe(false);
    await changeLanguage('fr');
    try {
      expect(i18n.hasResourceBundle('fr', 'webhooks')).toBe(true);
      expect(i18n.t('list.label', { ns: 'webhooks' })).not.toBe(i18n.getResource('en', 'webhooks', 'list.label'));
    } finally {
      await changeLanguage('en');
    }
  });
});
