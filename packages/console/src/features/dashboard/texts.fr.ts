import type { Translation } from '../../lib/i18n/translation.ts';
import type { dashboardTexts } from './texts.en.ts';

/** The dashboards in French (namespace `dashboard`). */
export const dashboardTextsFr: Translation<typeof dashboardTexts, 'fr'> = {
  intro: 'Enregistrements d’appareils et événements de ce projet, en temps réel, par période et par pays (UTC).',
  globalIntro: 'Enregistrements d’appareils et événements de tous les projets réunis, par période, par pays et par projet (UTC).',
  filters: {
    scope: 'Portée',
  },
  totals: {
    label: 'Totaux',
    issued: 'Enregistrements d’appareils',
    sum: 'Événements',
  },
  chart: {
    title: 'Utilisation',
    label:
      'Histogramme des enregistrements et des événements par {{period}}, du {{from}} au {{to}}\u202f; les mêmes données figurent dans le tableau situé en dessous.',
    periods: { hour: 'heure', day: 'jour', month: 'mois' },
    failed: 'Échec du chargement de l’utilisation',
    clickHint: 'Sélectionnez une colonne pour ouvrir ses événements dans le journal d’audit.',
    keyboard: 'Les flèches passent d’une période à l’autre et, vers le haut ou le bas, d’une colonne à l’autre de la période.',
    keyboardOpens:
      'Les flèches passent d’une période à l’autre et, vers le haut ou le bas, d’une colonne à l’autre de la période ; Entrée ouvre ses événements dans le journal d’audit.',
    downloadCsv: 'Télécharger le CSV',
  },
  keys: {
    issued: 'Enregistrements (issued)',
    oidc: 'Connexions (oidc)',
    jwt: 'Jetons d’identité (jwt)',
    'dvs-auth': 'Authentification DVS',
    'dvs-verify': 'Vérification DVS',
    'reg-code': 'QuickCodes (reg-code)',
  },
  table: {
    show: 'Afficher les données sous forme de tableau',
    hide: 'Masquer le tableau',
    periodsLabel: 'Utilisation par {{period}}',
    period: 'Période',
    countriesLabel: 'Événements par pays',
    country: 'Pays',
    events: 'Événements',
    openAudit: 'Ouvrir les événements de {{what}} dans le journal d’audit',
  },
  map: {
    title: 'Événements par pays',
    label: 'Carte du monde des événements par pays, du {{from}} au {{to}}\u202f; les mêmes données figurent dans le tableau situé en dessous.',
    none: 'Aucun événement avec une localisation connue sur cette période.',
    failed: 'Échec du chargement des localisations',
    unknown: 'Localisation inconnue',
    keyboard: 'Les flèches parcourent les pays ayant des événements, du plus actif au moins actif.',
    keyboardOpens:
      'Les flèches parcourent les pays ayant des événements, du plus actif au moins actif ; Entrée ouvre les événements du pays choisi dans le journal d’audit.',
  },
  enrollment: {
    title: 'Adoption des clés d’accès',
    intro: 'Clés d’accès proposées après une connexion par code, lien ou QuickCode, et combien de vos utilisateurs en ont une (jours UTC entiers).',
    failed: 'Impossible de charger les chiffres d’adoption',
    offers: 'Propositions après une connexion de secours',
    shown: 'Affichées',
    created: 'Clé d’accès créée',
    declined: 'Pas maintenant',
    signIns: 'Connexions',
    passkeySignIns: 'Avec une clé d’accès',
    fallbackSignIns: 'Par code, lien ou QuickCode',
    activeUsers: 'Utilisateurs connectés sur la période',
    withPasskey: 'Ayant une clé d’accès',
    ceremonies: 'Cérémonies de clé d’accès',
    completed: 'Terminées sur commencées',
    ofTotal: '{{part}} sur {{whole}}',
    percent: '{{n}}\u202f%',
    openAudit: '{{what}}\u202f: {{n}}, ouvrir ces événements dans le journal d’audit',
  },
  projects: {
    title: 'Projets les plus actifs',
    label: 'Projets ayant le plus d’événements',
    project: 'Projet',
    none: 'Aucun projet n’a été utilisé sur cette période.',
  },
};
