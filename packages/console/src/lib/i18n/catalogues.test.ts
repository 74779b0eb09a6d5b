import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import type { TranslatedLanguage } from './translation.ts';

// issue 13: every text of the console in English, French and Romanian. Each catalogue (the main one
// here, every `texts.en.ts` of the shared pieces and features) has a `texts.fr.ts` and `texts.ro.ts`
// beside it; found by file name, so a new catalogue without its translations fails here.

type Tree = { [key: string]: string | Tree };
type Module = Record<string, unknown>;

const englishModules = import.meta.glob<Module>('../../**/texts.en.ts', { eager: true });
const translatedModules = import.meta.glob<Module>('../../**/texts.{fr,ro}.ts', { eager: true });
const mainTranslations = import.meta.glob<Module>('./{fr,ro}.ts', { eager: true });

/** The one exported object of a catalogue module (the texts; `addTexts` exports nothing else). */
function soleExport(module: Module, file: string): Tree {
  const values = Object.values(module).filter((v) => typeof v === 'object' && v !== null);
  if (values.length !== 1) throw new Error(`${file} should export exactly one catalogue`);
  return values[0] as Tree;
}

interface Catalogue {
  name: string;
  english: Tree;
  translated: Record<TranslatedLanguage, Tree | undefined>;
}

const catalogues: Catalogue[] = [
  {
    name: 'lib/i18n (translation)',
    english: en as unknown as Tree,
    translated: {
      fr: mainTranslations['./fr.ts'] && soleExport(mainTranslations['./fr.ts'], 'fr.ts'),
      ro: mainTranslations['./ro.ts'] && soleExport(mainTranslations['./ro.ts'], 'ro.ts'),
    },
  },
  ...Object.entries(englishModules).map(([file, module]) => {
    const sibling = (language: TranslatedLanguage) => {
      const path = file.replace(/texts\.en\.ts$/, `texts.${language}.ts`);
      const found = translatedModules[path];
      return found && soleExport(found, path);
    };
    return { name: file.replace(/^\.\.\/\.\.\//, ''), english: soleExport(module, file), translated: { fr: sibling('fr'), ro: sibling('ro') } };
  }),
];

/** `a.b.c` → text, for every leaf. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else for (const [k, v] of leaves(value, path)) out.set(k, v);
  }
  return out;
}

// The plural category each language adds to English's `_one`/`_other` (CLDR, as Intl.PluralRules picks).
const EXTRA_PLURAL: Record<TranslatedLanguage, string> = { fr: 'many', ro: 'few' };

/** The keys a translation must have: English's, plus the language's own plural category of each `x_other`. */
function expectedKeys(english: Map<string, string>, language: TranslatedLanguage): string[] {
  const keys = [...english.keys()];
  for (const key of english.keys()) if (key.endsWith('_other')) keys.push(key.replace(/_other$/, `_${EXTRA_PLURAL[language]}`));
  return keys.sort();
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)].map((m) => m[1]).sort();

/** The English text a translated key stands for (`x_many` and `x_few` stand for `x_other`). */
const englishOf = (english: Map<string, string>, key: string) => english.get(key) ?? english.get(key.replace(/_(many|few)$/, '_other')) ?? '';

// Texts that are rightly the same as English: names (of the product, protocols, methods, keys), and
// the words a language writes as English does. Anything else equal to English is untranslated.
const NAMES = new Set([
  'Latchkey',
  '{{page}} · Latchkey',
  '© {{year}} Latchkey',
  'OpenID Connect',
  'QuickCode',
  'QuickCodes (reg-code)',
  'JSON Lines',
  'CSV',
  'Android',
  'iOS',
  'Plain',
  'S256',
  'Ctrl K',
  'Webhooks',
  'Webhook',
  'URL',
  '{{label}}: {{value}}',
]);
const SAME_WORDS: Record<TranslatedLanguage, Set<string>> = {
  fr: new Set([
    'Documentation',
    'Menu',
    'Configuration',
    'Applications',
    'Pages',
    'Page {{page}}',
    'Type',
    'Date',
    'Action',
    'Actions',
    'min',
    'Sessions',
    'Description',
  ]),
  ro: new Set(['Token', 'min', 'Secret']),
};
const rightlySame = (text: string, language: TranslatedLanguage) => NAMES.has(text) || SAME_WORDS[language].has(text) || !/[A-Za-z]{2}/.test(text);

describe.each(catalogues)('the $name catalogue', ({ english, translated }) => {
  const englishLeaves = leaves(english);

  describe.each(['fr', 'ro'] as const)('in %s', (language) => {
    const tree = translated[language];

    it('exists beside the English one', () => {
      expect(tree, `texts.${language}.ts is missing`).toBeDefined();
    });

    it('has exactly the English keys, with the language’s own plural forms', () => {
      if (!tree) return;
      expect([...leaves(tree).keys()].sort()).toEqual(expectedKeys(englishLeaves, language));
    });

    it('keeps every placeholder of the English text and leaves no text empty', () => {
      if (!tree) return;
      for (const [key, text] of leaves(tree)) {
        expect(text.trim(), key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(englishOf(englishLeaves, key)));
      }
    });

    it('translates every text that is not a name', () => {
      if (!tree) return;
      const untranslated = [...leaves(tree)].filter(([key, text]) => text === englishOf(englishLeaves, key) && !rightlySame(text, language));
      expect(untranslated).toEqual([]);
    });
  });

  it('writes Romanian ș and ț with the comma below, not the cedilla', () => {
    const tree = translated.ro;
    if (!tree) return;
    const cedilla = [...leaves(tree)].filter(([, text]) => /[şţŞŢ]/.test(text));
    expect(cedilla).toEqual([]);
  });
});
