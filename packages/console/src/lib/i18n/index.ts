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
export { en };
