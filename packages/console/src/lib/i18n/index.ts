import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.ts';

export const defaultNS = 'translation';
export const resources = { en: { translation: en } } as const;

/**
 * The one i18next instance. English is bundled and initialised synchronously: no language
 * detection and no catalogue download before the first render.
 */
export function createI18n(): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    supportedLngs: ['en'],
    defaultNS,
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

export const i18n = createI18n();

/**
 * The texts of a lazily loaded part of the console (a feature, the shared list and form pieces), as
 * a namespace of their own: they arrive with the code that shows them, not in the first download.
 * Called when that code's module is first evaluated, before anything of it renders.
 */
export function addTexts(namespace: string, texts: Record<string, unknown>, instance: I18n = i18n): void {
  if (!instance.hasResourceBundle('en', namespace)) instance.addResourceBundle('en', namespace, texts);
}
export { en };
