import { CATALOGUES as ALL } from '@latchkey/console/catalogues';

// The console's catalogues (issue 13), as the e2e suite reads them to tell English left on a French
// or Romanian page, and a catalogue key shown instead of its text.

type Tree = { readonly [key: string]: string | Tree };
export type Translated = 'fr' | 'ro';

const CATALOGUES = ALL as unknown as ReadonlyArray<{ en: Tree; fr: Tree; ro: Tree }>;

function leaves(tree: Tree, prefix = ''): Array<[string, string]> {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : leaves(value, path);
  });
}

/**
 * The English texts that `language` says otherwise, cut at their placeholders into the runs a page
 * would show whole; only runs long enough not to be a word of the data (two words or more).
 */
export function englishOnlyPhrases(language: Translated): string[] {
  const phrases = new Set<string>();
  for (const catalogue of CATALOGUES) {
    const translated = new Map(leaves(catalogue[language]));
    for (const [key, text] of leaves(catalogue.en)) {
      if (translated.get(key) === text) continue;
      for (const run of text.split(/\{\{[^}]+\}\}/)) {
        const phrase = run.trim().replace(/[.:,;]$/, '');
        if (phrase.split(/\s+/).length >= 2 && phrase.length >= 8) phrases.add(phrase);
      }
    }
  }
  return [...phrases];
}

/** Every catalogue key path (`list.noRecords`): one on a page is a text that was never found. */
export function catalogueKeys(): string[] {
  return CATALOGUES.flatMap((c) => leaves(c.en).map(([key]) => key)).filter((key) => key.includes('.'));
}
