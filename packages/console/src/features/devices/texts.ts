import { addTexts } from '../../lib/i18n/index.ts';
import { devicesTexts } from './texts.en.ts';

// The namespace `devices`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('devices', devicesTexts, {
  fr: async () => (await import('./texts.fr.ts')).devicesTextsFr,
  ro: async () => (await import('./texts.ro.ts')).devicesTextsRo,
});
