import { addTexts } from '../../lib/i18n/index.ts';
import { dashboardTexts } from './texts.en.ts';

// The namespace `dashboard`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('dashboard', dashboardTexts, {
  fr: async () => (await import('./texts.fr.ts')).dashboardTextsFr,
  ro: async () => (await import('./texts.ro.ts')).dashboardTextsRo,
});
