import type { Language } from '@latchkey/domain';

/** A language the console speaks (spec §9: en, fr, ro); English is the source of every text. */
export type { Language };
/** The languages translated from English, each loaded only when chosen. */
export type TranslatedLanguage = Exclude<Language, 'en'>;

/**
 * The plural categories each translated language adds to English's `_one`/`_other` (CLDR, as
 * `Intl.PluralRules` selects them): French says "1 million d'appareils" (`many`), Romanian
 * "2 dispozitive" but "20 de dispozitive" (`few` then `other`).
 */
export type ExtraPlural = { fr: 'many'; ro: 'few' };

/**
 * A translation of an English catalogue: the same keys with texts of the translated language, and
 * for every English plural `x_other` also the language's own category (`x_many` in French, `x_few`
 * in Romanian). A key missing or added is a compile error; lib/i18n/catalogues.test.ts checks the
 * same at run time.
 */
export type Translation<T, L extends TranslatedLanguage> = {
  -readonly [K in keyof T as K extends `${infer Base}_other` ? K | `${Base}_${ExtraPlural[L]}` : K]: T[K] extends string
    ? string
    : Translation<T[K], L>;
};
