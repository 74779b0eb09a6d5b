import { addTexts, i18n } from '../lib/i18n/index.ts';
import type { TranslatedLanguage } from '../lib/i18n/translation.ts';

// A feature's texts are found from its folder (issue 35): features/<f>/texts.en.ts is the namespace
// `<f>`, its texts.fr.ts and texts.ro.ts beside it; no file names them. The router loads a page's
// feature texts with its code (router.tsx), so this module and every catalogue are chunks of their
// own: none is in the first download, and French and Romanian are fetched only when chosen.

type Texts = Record<string, unknown>;
type Module = Record<string, unknown>;

const english = import.meta.glob<Module>('../features/*/texts.en.ts');
const translated = import.meta.glob<Module>('../features/*/texts.{fr,ro}.ts');

/** A catalogue module's one export: its texts (lib/i18n/catalogues.test.ts checks each has exactly one). */
function textsOf(module: Module, file: string): Texts {
  const [texts, ...others] = Object.values(module);
  if (others.length > 0 || texts === null || typeof texts !== 'object') throw new Error(`${file} should export exactly one catalogue`);
  return texts as Texts;
}

const fileOf = (feature: string, language: string) => `../features/${feature}/texts.${language}.ts`;

/** The feature a page file belongs to: the folder under features/ (`../features/users/pages/…` → users). */
export function featureOfPage(page: string): string | null {
  return /^\.\.\/features\/([^/]+)\//.exec(page)?.[1] ?? null;
}

/** The texts of the feature a page file is in (`routeTable[…].page`), when it has some. */
export async function loadPageTexts(page: string): Promise<void> {
  const feature = featureOfPage(page);
  if (feature) await loadFeatureTexts(feature);
}

/** The features that have texts of their own (a folder with a texts.en.ts). */
export const featuresWithTexts: readonly string[] = Object.keys(english).flatMap((file) => featureOfPage(file) ?? []);

/**
 * Adds the English texts of `feature` as its namespace, with its French and Romanian to fetch when
 * chosen (lib/i18n `addTexts`); the caller then fetches the current language's (`loadPendingTexts`).
 * A feature without texts (its pages use the main catalogue) has nothing to add.
 */
export async function loadFeatureTexts(feature: string, instance = i18n): Promise<void> {
  const file = fileOf(feature, 'en');
  const load = english[file];
  if (!load || instance.hasResourceBundle('en', feature)) return;
  const translation = (language: TranslatedLanguage) => async () => {
    const path = fileOf(feature, language);
    const loadTranslation = translated[path];
    if (!loadTranslation) throw new Error(`${path} is missing`);
    return textsOf(await loadTranslation(), path);
  };
  addTexts(feature, textsOf(await load(), file), { fr: translation('fr'), ro: translation('ro') }, instance);
}
