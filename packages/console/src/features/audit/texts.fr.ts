import type { Translation } from '../../lib/i18n/translation.ts';
import type { auditTexts } from './texts.en.ts';

/** The audit log page in French (namespace `audit`). */
export const auditTextsFr: Translation<typeof auditTexts, 'fr'> = {
  list: {
    intro:
      'Ce qui s’est passé dans ce projet\u202f: connexions, enregistrements et codes de vos utilisateurs, et modifications apportées par les comptes dans la console.',
    label: 'Événements d’audit',
    date: 'Date',
    account: 'Compte',
    deviceName: 'Nom de l’appareil',
    scope: 'Portée',
    result: 'Résultat',
    action: 'Action',
    actionHint: 'par ex. sign_in',
    country: 'Pays',
    countryHint: 'Deux lettres, par ex. NL',
    details: 'Détails',
    detailsOf: 'Détails de l’événement du {{date}}',
    none: '—',
  },
  details: {
    title: 'Détails de l’événement',
  },
};
