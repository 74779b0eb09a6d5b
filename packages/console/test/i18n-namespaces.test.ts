import { describe, expect, it } from 'vitest';
import { en } from '../src/lib/i18n/en.ts';
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

describe('the list of every catalogue (app/catalogues.ts, read by the e2e language checks)', () => {
  it('names the main catalogue and every texts.ts of the console', async () => {
    // Imported here, not above: loading every catalogue registers every namespace (see the test above).
    const { CATALOGUES } = await import('../src/app/catalogues.ts');
    const loaders = import.meta.glob<Record<string, unknown>>('../src/**/texts.ts');
    const files = Object.fromEntries(await Promise.all(Object.entries(loaders).map(async ([file, load]) => [file, await load()] as const)));
    const listed = new Set<unknown>(CATALOGUES.map((c) => c.en));
    expect(CATALOGUES).toHaveLength(Object.keys(files).length + 1);
    expect(listed.has(en)).toBe(true);
    for (const [file, module] of Object.entries(files)) {
      const texts = Object.values(module).find((v) => typeof v === 'object' && v !== null);
      expect(listed.has(texts), file).toBe(true);
    }
  });
});
