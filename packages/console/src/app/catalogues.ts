import { uiTexts } from '../components/texts.ts';
import { uiTextsFr } from '../components/texts.fr.ts';
import { uiTextsRo } from '../components/texts.ro.ts';
import { accountsTexts } from '../features/accounts/texts.ts';
import { accountsTextsFr } from '../features/accounts/texts.fr.ts';
import { accountsTextsRo } from '../features/accounts/texts.ro.ts';
import { appsTexts } from '../features/apps/texts.ts';
import { appsTextsFr } from '../features/apps/texts.fr.ts';
import { appsTextsRo } from '../features/apps/texts.ro.ts';
import { auditTexts } from '../features/audit/texts.ts';
import { auditTextsFr } from '../features/audit/texts.fr.ts';
import { auditTextsRo } from '../features/audit/texts.ro.ts';
import { dashboardTexts } from '../features/dashboard/texts.ts';
import { dashboardTextsFr } from '../features/dashboard/texts.fr.ts';
import { dashboardTextsRo } from '../features/dashboard/texts.ro.ts';
import { devicesTexts } from '../features/devices/texts.ts';
import { devicesTextsFr } from '../features/devices/texts.fr.ts';
import { devicesTextsRo } from '../features/devices/texts.ro.ts';
import { searchTexts } from '../features/search/texts.ts';
import { searchTextsFr } from '../features/search/texts.fr.ts';
import { searchTextsRo } from '../features/search/texts.ro.ts';
import { settingsTexts } from '../features/settings/texts.ts';
import { settingsTextsFr } from '../features/settings/texts.fr.ts';
import { settingsTextsRo } from '../features/settings/texts.ro.ts';
import { en } from '../lib/i18n/en.ts';
import { fr } from '../lib/i18n/fr.ts';
import { ro } from '../lib/i18n/ro.ts';

/**
 * Every catalogue of the console in its three languages (issue 13), for the checks that read them
 * whole: lib/i18n/catalogues.test.ts and the e2e suite's search for English left on a translated page.
 * Not imported by the console itself: each translation is its own chunk there, fetched when chosen.
 */
export const CATALOGUES = [
  { namespace: 'translation', en, fr, ro },
  { namespace: 'ui', en: uiTexts, fr: uiTextsFr, ro: uiTextsRo },
  { namespace: 'accounts', en: accountsTexts, fr: accountsTextsFr, ro: accountsTextsRo },
  { namespace: 'apps', en: appsTexts, fr: appsTextsFr, ro: appsTextsRo },
  { namespace: 'audit', en: auditTexts, fr: auditTextsFr, ro: auditTextsRo },
  { namespace: 'dashboard', en: dashboardTexts, fr: dashboardTextsFr, ro: dashboardTextsRo },
  { namespace: 'devices', en: devicesTexts, fr: devicesTextsFr, ro: devicesTextsRo },
  { namespace: 'search', en: searchTexts, fr: searchTextsFr, ro: searchTextsRo },
  { namespace: 'settings', en: settingsTexts, fr: settingsTextsFr, ro: settingsTextsRo },
] as const;
