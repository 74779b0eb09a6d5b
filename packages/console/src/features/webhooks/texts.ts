import { addTexts } from '../../lib/i18n/index.ts';
import { webhooksTexts } from './texts.en.ts';

// The namespace `webhooks`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('webhooks', webhooksTexts, {
  fr: async () => (await import('./texts.fr.ts')).webhooksTextsFr,
  ro: async () => (await import('./texts.ro.ts')).webhooksTextsRo,
});
