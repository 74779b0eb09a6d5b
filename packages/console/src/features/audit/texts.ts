import { addTexts } from '../../lib/i18n/index.ts';
import { auditTexts } from './texts.en.ts';

// The namespace `audit`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('audit', auditTexts, {
  fr: async () => (await import('./texts.fr.ts')).auditTextsFr,
  ro: async () => (await import('./texts.ro.ts')).auditTextsRo,
});
