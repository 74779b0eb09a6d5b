import 'i18next';
import type { en } from '../lib/i18n/en.ts';
import type { TextNamespaces } from '../lib/i18n/namespaces.ts';

// The catalogue's namespaces: `translation` is in the first download (lib/i18n/en.ts); the others
// arrive with the code that shows them (lib/i18n `addTexts`), each typed by its own texts.en.ts
// (lib/i18n/namespaces.ts), so every namespace's keys are checked.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: TextNamespaces & { translation: typeof en };
  }
}
