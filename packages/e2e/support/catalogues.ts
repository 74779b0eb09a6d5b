import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// The console's catalogues (issue 13), as the e2e suite reads them to tell English left on a French
// or Romanian page, and a catalogue key shown instead of its text: the main one (lib/i18n) and every
// part's texts.en.ts with its texts.fr.ts and texts.ro.ts, found by name as the console's own
// catalogue test finds them (no list to keep).

type Tree = { readonly [key: string]: string | Tree };
export type Translated = 'fr' | 'ro';

const CONSOLE_SRC = fileURLToPath(new URL('../../console/src/', import.meta.url));

const englishFiles = [
  'lib/i18n/en.ts',
  ...readdirSync(CONSOLE_SRC, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('texts.en.ts'))
    .sort(),
];

/** A catalogue module's one exported object. */
async function textsOf(file: string): Promise<Tree> {
  const module = (await import(pathToFileURL(join(CONSOLE_SRC, file)).href)) as Record<string, unknown>;
  const texts = Object.values(module).find((value) => typeof value === 'object' && value !== null);
  if (!texts) throw new Error(`no catalogue in ${file}`);
  return texts as Tree;
}

const CATALOGUES = await Promise.all(
  englishFiles.map(async (file) => ({
    en: await textsOf(file),
    fr: await textsOf(file.replace(/en\.ts$/, 'fr.ts')),
    ro: await textsOf(file.replace(/en\.ts$/, 'ro.ts')),
  })),
);

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
