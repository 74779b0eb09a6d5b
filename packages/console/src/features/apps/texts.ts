import { addTexts } from '../../lib/i18n/index.ts';
import { appsTexts } from './texts.en.ts';

// The namespace `apps`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('apps', appsTexts, {
  fr: async () => (await import('./texts.fr.ts')).appsTextsFr,
  ro: async () => (await import('./texts.ro.ts')).appsTextsRo,
});
