import { addTexts } from '../../lib/i18n/index.ts';
import { searchTexts } from './texts.en.ts';

// The namespace `search`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('search', searchTexts, {
  fr: async () => (await import('./texts.fr.ts')).searchTextsFr,
  ro: async () => (await import('./texts.ro.ts')).searchTextsRo,
});
