import { addTexts } from '../../lib/i18n/index.ts';
import { settingsTexts } from './texts.en.ts';

// The namespace `settings`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('settings', settingsTexts, {
  fr: async () => (await import('./texts.fr.ts')).settingsTextsFr,
  ro: async () => (await import('./texts.ro.ts')).settingsTextsRo,
});
