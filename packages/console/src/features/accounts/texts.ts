import { addTexts } from '../../lib/i18n/index.ts';
import { accountsTexts } from './texts.en.ts';

// The namespace `accounts`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('accounts', accountsTexts, {
  fr: async () => (await import('./texts.fr.ts')).accountsTextsFr,
  ro: async () => (await import('./texts.ro.ts')).accountsTextsRo,
});
