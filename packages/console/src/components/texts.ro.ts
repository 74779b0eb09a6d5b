import type { Translation } from '../lib/i18n/translation.ts';
import type { uiTexts } from './texts.en.ts';

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
    progress_one: 'Se exportă {{format}} (rânduri: {{rows}})',
    progress_few: 'Se exportă {{format}} (rânduri: {{rows}})',
    progress_other: 'Se exportă {{format}} (rânduri: {{rows}})',
    progressOf_one: 'Se exportă {{format}} (rânduri: {{rows}} din {{total}})',
    progressOf_few: 'Se exportă {{format}} (rânduri: {{rows}} din {{total}})',
    progressOf_other: 'Se exportă {{format}} (rânduri: {{rows}} din {{total}})',
    cancel: 'Anulați exportul',
    done_one: 'Rânduri exportate în {{file}}: {{rows}}',
    done_few: 'Rânduri exportate în {{file}}: {{rows}}',
    done_other: 'Rânduri exportate în {{file}}: {{rows}}',
    failed: 'Exportul a eșuat',
  },
};
