import 'i18next';
import type { uiTexts } from '../components/texts.ts';
import type { accountsTexts } from '../features/accounts/texts.ts';
import type { appsTexts } from '../features/apps/texts.ts';
import type { auditTexts } from '../features/audit/texts.ts';
import type { dashboardTexts } from '../features/dashboard/texts.ts';
import type { devicesTexts } from '../features/devices/texts.ts';
import type { searchTexts } from '../features/search/texts.ts';
import type { settingsTexts } from '../features/settings/texts.ts';
import type { en } from '../lib/i18n/en.ts';

// The catalogue's namespaces: `translation` is in the first download (lib/i18n/en.ts); the others
// arrive with the code that shows them (lib/i18n `addTexts`). Declared here, where every layer is
// visible, so each namespace's keys are typed.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: {
      translation: typeof en;
      ui: typeof uiTexts;
      apps: typeof appsTexts;
      accounts: typeof accountsTexts;
      devices: typeof devicesTexts;
      audit: typeof auditTexts;
      dashboard: typeof dashboardTexts;
      settings: typeof settingsTexts;
      search: typeof searchTexts;
    };
  }
}
