import { addTexts } from '../../lib/i18n/index.ts';
import { usersTexts } from './texts.en.ts';

// The namespace `users`: English with this code, French and Romanian fetched when chosen (lib/i18n).
addTexts('users', usersTexts, {
  fr: async () => (await import('./texts.fr.ts')).usersTextsFr,
  ro: async () => (await import('./texts.ro.ts')).usersTextsRo,
});
