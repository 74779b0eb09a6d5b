import type { Translation } from '../lib/i18n/translation.ts';
import type { uiTexts } from './texts.en.ts';

/** The shared list, modal and form pieces in French (namespace `ui`). */
export const uiTextsFr: Translation<typeof uiTexts, 'fr'> = {
  list: {
    noRecords: 'Aucun enregistrement trouvé',
    loadFailed: 'La liste n’a pas pu être chargée',
    loading: 'Chargement…',
    filters: 'Filtres',
    activeFilters: 'Filtres actifs',
    filterTag: '{{label}}\u202f: {{value}}',
    removeFilter: 'Supprimer le filtre {{label}}',
    clearFilter: 'Effacer {{label}}',
    any: 'Indifférent',
    pagination: 'Navigation entre les pages',
    previousPage: 'Page précédente',
    nextPage: 'Page suivante',
    page: 'Page {{page}}',
    rowsPerPage: 'Lignes par page',
    range: '{{from}}–{{to}} sur {{total}}',
    rangeCapped: '{{from}}–{{to}} sur {{total}}+',
    fromDate: 'Du',
    toDate: 'Au',
    yes: 'Oui',
    no: 'Non',
  },
  actions: {
    save: 'Enregistrer',
    cancel: 'Annuler',
    close: 'Fermer',
  },
  copy: {
    copy: 'Copier {{label}}',
    copied: 'Copié',
  },
  secret: {
    warningTitle: 'Affiché une seule fois',
    warning: 'Copiez-le maintenant et conservez-le en lieu sûr\u202f: il ne pourra pas être récupéré plus tard.',
    acknowledge: 'Je l’ai copié',
  },
  settings: {
    dangerZone: 'Zone de danger',
  },
  export: {
    label: 'Exporter',
    asCsv: 'CSV (tableur)',
    asJsonl: 'JSON Lines',
    formats: { csv: 'CSV', jsonl: 'JSON Lines' },
    progress_one: 'Export {{format}} en cours (lignes\u202f: {{rows}})',
    progress_many: 'Export {{format}} en cours (lignes\u202f: {{rows}})',
    progress_other: 'Export {{format}} en cours (lignes\u202f: {{rows}})',
    progressOf_one: 'Export {{format}} en cours (lignes\u202f: {{rows}} sur {{total}})',
    progressOf_many: 'Export {{format}} en cours (lignes\u202f: {{rows}} sur {{total}})',
    progressOf_other: 'Export {{format}} en cours (lignes\u202f: {{rows}} sur {{total}})',
    cancel: 'Annuler l’export',
    done_one: 'Lignes exportées dans {{file}}\u202f: {{rows}}',
    done_many: 'Lignes exportées dans {{file}}\u202f: {{rows}}',
    done_other: 'Lignes exportées dans {{file}}\u202f: {{rows}}',
    failed: 'L’export a échoué',
  },
};
