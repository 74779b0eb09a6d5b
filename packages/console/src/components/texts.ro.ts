import type { Translation } from '../lib/i18n/translation.ts';
import type { uiTexts } from './texts.ts';

/** The shared list, modal and form pieces in Romanian (namespace `ui`). */
export const uiTextsRo: Translation<typeof uiTexts, 'ro'> = {
  list: {
    noRecords: 'Nu s-au găsit înregistrări',
    loadFailed: 'Lista nu a putut fi încărcată',
    loading: 'Se încarcă…',
    filters: 'Filtre',
    activeFilters: 'Filtre active',
    filterTag: '{{label}}: {{value}}',
    removeFilter: 'Eliminați filtrul {{label}}',
    clearFilter: 'Ștergeți {{label}}',
    any: 'Oricare',
    pagination: 'Paginare',
    previousPage: 'Pagina anterioară',
    nextPage: 'Pagina următoare',
    page: 'Pagina {{page}}',
    rowsPerPage: 'Rânduri pe pagină',
    range: '{{from}}–{{to}} din {{total}}',
    rangeCapped: '{{from}}–{{to}} din {{total}}+',
    fromDate: 'De la',
    toDate: 'Până la',
    yes: 'Da',
    no: 'Nu',
  },
  actions: {
    save: 'Salvați',
    cancel: 'Anulați',
    close: 'Închideți',
  },
  copy: {
    copy: 'Copiați {{label}}',
    copied: 'Copiat',
  },
  secret: {
    warningTitle: 'Afișat o singură dată',
    warning: 'Copiați-l acum și păstrați-l într-un loc sigur: nu va mai putea fi recuperat ulterior.',
    acknowledge: 'L-am copiat',
  },
  settings: {
    dangerZone: 'Zonă periculoasă',
  },
  export: {
    label: 'Exportați',
    asCsv: 'CSV (foaie de calcul)',
    asJsonl: 'JSON Lines',
    formats: { csv: 'CSV', jsonl: 'JSON Lines' },
    progress: 'Se exportă {{format}} (rânduri: {{rows}})',
    progressOf: 'Se exportă {{format}} (rânduri: {{rows}} din {{total}})',
    cancel: 'Anulați exportul',
    done: 'Rânduri exportate în {{file}}: {{rows}}',
    failed: 'Exportul a eșuat',
  },
};
