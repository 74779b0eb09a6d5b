import { addTexts } from '../lib/i18n/index.ts';
import { uiTexts } from './texts.en.ts';

// The namespace `ui`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('ui', uiTexts, {
  fr: async () => (await import('./texts.fr.ts')).uiTextsFr,
  ro: async () => (await import('./texts.ro.ts')).uiTextsRo,
});
