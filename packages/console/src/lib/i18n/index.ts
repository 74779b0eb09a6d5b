import { LANGUAGES } from '@latchkey/domain';
import { en } from './en.ts';
import { Translator } from './runtime.ts';
import type { Language, TranslatedLanguage } from './translation.ts';

export type { Language, TranslatedLanguage } from './translation.ts';
export const defaultNS = 'translation';

/** Each language named in itself (issue 13): a person finds theirs whatever the console speaks now. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français', ro: 'Română' };
export const resources = { en: { translation: en } } as const;

type Texts = Record<string, unknown>;
/** How a namespace's texts in each translated language are fetched: a chunk of their own. */
export type TranslationLoaders = Record<TranslatedLanguage, () => Promise<Texts>>;

// Every namespace's translations, by the namespace: the main catalogue's here, the others' as their
// code registers them (addTexts). Nothing is fetched until its language is chosen.
const translations = new Map<string, TranslationLoaders>([
  [
    defaultNS,
    {
      fr: async () => (await import('./fr.ts')).fr,
      ro: async () => (await import('./ro.ts')).ro,
    },
  ],
]);

type I18n = Translator;

/**
 * The one translator (runtime.ts). English is bundled and ready at once: the first render needs no
 * download in English; another language is fetched before it (main.tsx, `changeLanguage`).
 */
export function createI18n(): I18n {
  return new Translator({ language: 'en', fallbackLanguage: 'en', defaultNS, resources });
}

export const i18n = createI18n();

/**
 * The texts of a lazily loaded part of the console (a feature, the shared list and form pieces), as
 * a namespace of their own: they arrive with the code that shows them, not in the first download.
 * Called when that code's module is first evaluated, before anything of it renders; its translations
 * are fetched by `loadPendingTexts` (the router calls it after loading a page's code).
 */
export function addTexts(namespace: string, texts: Texts, translated: TranslationLoaders, instance: I18n = i18n): void {
  translations.set(namespace, translated);
  if (!instance.hasResourceBundle('en', namespace)) instance.addResourceBundle('en', namespace, texts);
}

/** Fetches, in `language`, every registered namespace not fetched yet. */
async function loadTexts(language: Language, instance: I18n): Promise<void> {
  if (language === 'en') return;
  await Promise.all(
    [...translations]
      .filter(([namespace]) => !instance.hasResourceBundle(language, namespace))
      .map(async ([namespace, load]) => {
        const texts = await load[language]();
        if (!instance.hasResourceBundle(language, namespace)) instance.addResourceBundle(language, namespace, texts);
      }),
  );
}

/** The console's language now. */
export function currentLanguage(instance: I18n = i18n): Language {
  return isLanguage(instance.language) ? instance.language : 'en';
}

/**
 * The current language's texts of the namespaces registered since it was chosen (code loaded
 * later, such as a page's): the router awaits this before showing the page, so no English flashes.
 */
export function loadPendingTexts(instance: I18n = i18n): Promise<void> {
  return loadTexts(currentLanguage(instance), instance);
}

let latestChange = 0;

/**
 * Speak `language`: its texts of every namespace registered so far are fetched first, then every
 * text on screen changes at once. Of two changes asked for in a row, the later one wins.
 */
export async function changeLanguage(language: Language, instance: I18n = i18n): Promise<void> {
  const change = ++latestChange;
  await loadTexts(language, instance);
  if (change !== latestChange) return;
  await instance.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * The first of the browser's preferred languages the console speaks (`fr-CA` is French), English
 * when none is.
 */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

export { en };

/**
 * The language to speak (issue 13): the one the account chose in the top bar, else the first of the
 * browser's preferred languages the console speaks, else English.
 */
export function accountLanguage(chosen: Language | null, preferred: readonly string[]): Language {
  return chosen ?? browserLanguage(preferred);
}

/**
 * The language of the first render, before the account is known: the one this browser last used
 * (noted by `rememberLanguage`), else the browser's.
 */
export function startLanguage(stored: string | null, preferred: readonly string[]): Language {
  return isLanguage(stored) ? stored : browserLanguage(preferred);
}
