import type { Translation } from '../../lib/i18n/translation.ts';
import type { auditTexts } from './texts.en.ts';

/** The audit log page in Romanian (namespace `audit`). */
export const auditTextsRo: Translation<typeof auditTexts, 'ro'> = {
  list: {
    intro:
      'Ce s-a întâmplat în acest proiect: conectările, înregistrările și codurile utilizatorilor dumneavoastră, precum și modificările făcute de conturi în consolă.',
    label: 'Evenimente de audit',
    date: 'Data',
    account: 'Cont',
    deviceName: 'Numele dispozitivului',
    scope: 'Domeniu',
    result: 'Rezultat',
    action: 'Acțiune',
    actionHint: 'de ex. sign_in',
    country: 'Țară',
    countryHint: 'Două litere, de ex. NL',
    details: 'Detalii',
    detailsOf: 'Detaliile evenimentului din {{date}}',
    none: '—',
  },
  details: {
    title: 'Detaliile evenimentului',
  },
};
